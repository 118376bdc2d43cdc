module github.com/amlscreen/amlscreen

go 1.26.0

require (
	codeberg.org/go-pdf/fpdf v0.12.0
	github.com/google/uuid v1.6.0
	github.com/klauspost/compress v1.20.3
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.10
	go.etcd.io/bbolt v1.5.0
	golang.org/x/term v0.44.0
	golang.org/x/text v0.43.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	golang.org/x/sys v0.46.0 // indirect
)
