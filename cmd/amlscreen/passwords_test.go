package main

import "github.com/amlscreen/amlscreen/casework"

// The tests hash passwords with 64 KiB and one pass instead of OWASP's
// 19 MiB and two (casework.DefaultArgon2): each users add and sign-in
// would otherwise spend tens of milliseconds of CPU on a cost the tests
// do not measure. casework's tests pin the default parameters.
func init() { passwordHashing = casework.Argon2Params{Memory: 64, Time: 1, Threads: 1} }
