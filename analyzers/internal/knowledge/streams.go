package knowledge

import (
	"go/types"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Readers of a stream: a response body (or a dialed connection) wrapped by one of streamWrappers and read, in a loop,
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
	{Pkg: "encoding/json", Recv: "Decoder", Name: "Token"}:  true,
	{Pkg: "io", Recv: "Reader", Name: "Read"}:               true,
	{Pkg: "io", Recv: "ReadCloser", Name: "Read"}:           true,
	{Pkg: "net", Recv: "Conn", Name: "Read"}:                true,
	{Pkg: "net", Recv: "TCPConn", Name: "Read"}:             true,
	{Pkg: "crypto/tls", Recv: "Conn", Name: "Read"}:         true,
}

// StreamWrapper reports whether fn wraps a reader for reading it piece by piece
// (bufio.NewScanner, json.NewDecoder).
func StreamWrapper(fn *types.Func) bool { return streamWrappers[flow.ID(fn)] }

// StreamRead reports whether fn reads the next piece of a stream (Scanner.Scan,
// Decoder.Decode, Reader.Read).
func StreamRead(fn *types.Func) bool { return streamReads[flow.ID(fn)] }

// Copies that read a whole body into a writer, by the index of their source argument. A body
// copied to a file or a pipe is a transfer as long as the object (see MemoryWriter for the
// writers that keep an answer in memory instead).
var streamCopies = map[flow.FuncID]int{
	{Pkg: "io", Name: "Copy"}:       1,
	{Pkg: "io", Name: "CopyN"}:      1,
	{Pkg: "io", Name: "CopyBuffer"}: 1,
}

// StreamCopy returns the index of the source argument of fn when fn copies a reader into a
// writer (io.Copy), or -1.
func StreamCopy(fn *types.Func) int {
	if i, ok := streamCopies[flow.ID(fn)]; ok {
		return i
	}
	return -1
}

// SDK calls that open a stream: the reader they return fetches the object as it is read, for
// as long as the transfer lasts, under the context they were given; a deadline on that context
// would cut a long download.
var streamOpeners = map[flow.FuncID]bool{
	{Pkg: "cloud.google.com/go/storage", Recv: "ObjectHandle", Name: "NewReader"}:       true,
	{Pkg: "cloud.google.com/go/storage", Recv: "ObjectHandle", Name: "NewRangeReader"}:  true,
	{Pkg: "github.com/minio/minio-go/v7", Recv: "Client", Name: "GetObject"}:            true,
	{Pkg: "github.com/minio/minio-go/v6", Recv: "Client", Name: "GetObjectWithContext"}: true,
}

// OpensStream reports whether fn opens a stream (see streamOpeners).
func OpensStream(fn *types.Func) bool { return streamOpeners[flow.ID(fn)] }

// Writers and readers that hold what they carry in memory: a body copied into one of
// memoryWriters (or into a variable of memoryVars, which drops it) is read whole, not
// transferred; a request body of memoryReaders (or http.NoBody) is sent at once.
var (
	memoryWriters = [][2]string{{"bytes", "Buffer"}, {"strings", "Builder"}}
	memoryReaders = [][2]string{{"bytes", "Reader"}, {"bytes", "Buffer"}, {"strings", "Reader"}}
	memoryVars    = map[flow.FuncID]bool{
		{Pkg: "io", Name: "Discard"}:        true,
		{Pkg: "io/ioutil", Name: "Discard"}: true,
		{Pkg: "net/http", Name: "NoBody"}:   true,
	}
)

// MemoryWriter reports whether t is a writer that keeps what it is given in memory.
func MemoryWriter(t types.Type) bool { return namedOneOf(t, memoryWriters) }

// MemoryReader reports whether t is a reader of bytes held in memory.
func MemoryReader(t types.Type) bool { return namedOneOf(t, memoryReaders) }

// MemoryVar reports whether the package variable pkg.name is a writer that drops what it is
// given or a body that is empty (io.Discard, http.NoBody).
func MemoryVar(pkg, name string) bool { return memoryVars[flow.FuncID{Pkg: pkg, Name: name}] }

func namedOneOf(t types.Type, names [][2]string) bool {
	for _, n := range names {
		if typeis.Named(t, n[0], n[1]) {
			return true
		}
	}
	return false
}
