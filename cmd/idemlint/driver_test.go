package main

import (
	"slices"
	"testing"
)

// A check's "failed prerequisites" is dropped when the model it names failed with an error of
// its own for the same package; kept when the model's error is not there.
func TestCausesOnly(t *testing.T) {
	in := []failure{
		{Pkg: "p", Analyzer: "retryscope", Msg: "internal error: retryscope panicked on package p"},
		{Pkg: "p", Analyzer: "nojitter", Msg: "failed prerequisites: retryscope"},
		{Pkg: "p", Analyzer: "notimeout", Msg: "failed prerequisites: remote"},
		{Pkg: "q", Analyzer: "nojitter", Msg: "failed prerequisites: retryscope"},
		{Msg: "go vet exited with status 1"},
	}
	got := causesOnly(slices.Clone(in))
	want := []failure{in[0], in[2], in[3], in[4]}
	if !slices.Equal(got, want) {
		t.Errorf("causesOnly:\ngot  %v\nwant %v", got, want)
	}
}
