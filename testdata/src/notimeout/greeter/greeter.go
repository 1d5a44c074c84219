// Package greeter is a package with a test helper package, greetertest.
package greeter

const Hello = "hello"
