package knowledge

import (
	"go/types"
	"slices"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// resty retries when its client has a retry count (retries; 0, the default, is off), with
// jittered waits. v3 retries only idempotent methods unless told otherwise.
var RestyPaths = []string{"github.com/go-resty/resty/v2", "resty.dev/v3"}

var Resty = &Library{
	Name:  "go-resty/resty v2, resty.dev/v3",
	Paths: RestyPaths,
	Clients: []Entry{{
		Recv:   "Request",
		Names:  []string{"Get", "Post", "Put", "Patch", "Delete", "Head", "Options", "Execute", "Send"},
		Config: []int{-1}, Ctx: -1,
	}},
	Defaults: Summary{*Once, WaitJittered, DeadlineUnknown},
	Mutates:  true,
	Copies:   []string{"Clone"},
	Settings: map[string]Option{
		"SetRetryCount":              {Layer: 1, Arg: 0, Attempts: AttemptsOf(1).NegativeMeans(Once)},
		"SetRetryAllowNonIdempotent": {Layer: 1, Arg: 0}, // v3: POST and PATCH are retried too (see Resends)
		// v2: once a client or request has conditions, it retries only what one of them
		// says, a failed transport included (see Resends).
		"AddRetryCondition": {Layer: 1, Arg: 0},
	},
}

// RestySends are the methods of resty v2's Request that send it, with the HTTP method each
// fixes ("" for Execute, whose first argument names it).
var RestySends = map[string]string{
	"Get": "GET", "Head": "HEAD", "Post": "POST", "Put": "PUT", "Patch": "PATCH",
	"Delete": "DELETE", "Options": "OPTIONS", "Execute": "",
}

func init() {
	for name := range RestySends {
		AddrArgs[flow.FuncID{Pkg: RestyPaths[0], Recv: "Request", Name: name}] = 0
	}
	AddrArgs[flow.FuncID{Pkg: RestyPaths[0], Recv: "Request", Name: "Execute"}] = 1
}

// RestyStreams are the methods of resty v2's Request after which its transfer is a stream: it
// uploads files or a multipart form, or writes its answer to a file or leaves the raw body to
// the caller (SetDoNotParseResponse, unless given false). SetBody streams when its body is a
// reader not held in memory.
var RestyStreams = []string{"SetFile", "SetFiles", "SetFileReader", "SetMultipartField", "SetMultipartFields", "SetOutput", "SetDoNotParseResponse"}

// NeverNilResponse reports whether t is the response type of a library whose send methods hand
// back a response even when the request failed (resty's *Response, its status then 0): a call
// that returns one never returns nil, and a test of it for nil takes one side only.
func NeverNilResponse(t types.Type) bool {
	ptr, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Name() != "Response" {
		return false
	}
	return slices.Contains(RestyPaths, named.Obj().Pkg().Path())
}
