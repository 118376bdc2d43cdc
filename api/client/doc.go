// Package client is a Go client of the local API, generated from
// ../openapi.yaml with oapi-codegen; run go generate after changing the
// document. It shows that the document generates a working client (a test
// of package server screens a name with it); programs may use it as it
// is.
package client

//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2 -generate types,client -package client -o client.gen.go ../openapi.yaml
