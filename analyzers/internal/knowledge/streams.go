package knowledge

import (
	"go/types"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// Readers of a stream: a response body wrapped by one of streamWrappers and read, in a loop,
// through one of streamReads (or read directly in a loop) is consumed as a stream (server-sent
// events, newline-delimited JSON, a watch): the request lives as long as the stream, and a
// client Timeout would cut it.
var streamWrappers = map[flow.FuncID]bool{
	{Pkg: "bufio", Name: "NewScanner"}:         true,
	{Pkg: "bufio", Name: "NewReader"}:          true,
	{Pkg: "bufio", Name: "NewReaderSize"}:      true,
	{Pkg: "encoding/json", Name: "NewDecoder"}: true,
}

var streamReads = map[flow.FuncID]bool{
	{Pkg: "bufio", Recv: "Scanner", Name: "Scan"}:           true,
	{Pkg: "bufio", Recv: "Reader", Name: "ReadString"}:      true,
	{Pkg: "bufio", Recv: "Reader", Name: "ReadBytes"}:       true,
	{Pkg: "bufio", Recv: "Reader", Name: "ReadLine"}:        true,
	{Pkg: "bufio", Recv: "Reader", Name: "ReadSlice"}:       true,
	{Pkg: "encoding/json", Recv: "Decoder", Name: "Decode"}: true,
	{Pkg: "encoding/json", Recv: "Decoder", Name: "More"}:   true,
	{Pkg: "io", Recv: "Reader", Name: "Read"}:               true,
	{Pkg: "io", Recv: "ReadCloser", Name: "Read"}:           true,
}

// StreamWrapper reports whether fn wraps a reader for reading it piece by piece
// (bufio.NewScanner, json.NewDecoder).
func StreamWrapper(fn *types.Func) bool { return streamWrappers[flow.ID(fn)] }

// StreamRead reports whether fn reads the next piece of a stream (Scanner.Scan,
// Decoder.Decode, Reader.Read).
func StreamRead(fn *types.Func) bool { return streamReads[flow.ID(fn)] }
