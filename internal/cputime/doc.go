// Package cputime reads the CPU time of the calling OS thread, so that a
// benchmark's cost per check can be told apart from other jobs loading
// the machine.
package cputime
