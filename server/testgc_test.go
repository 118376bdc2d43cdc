package server

// The tests collect garbage less often (internal/testgc).
import _ "github.com/amlscreen/amlscreen/internal/testgc"
