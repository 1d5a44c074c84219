package knowledge

import "github.com/idemlint/idemlint/analyzers/internal/flow"

// HTTP requests: the library functions that make one from a method and a URL, and those that
// copy one. The remote model reads them to tell a request's method, URL and context; retryscope,
// keys and notimeout's messages read the same tables.

// NoArg marks an argument a function does not take.
const NoArg = -1

// A RequestMaker is a library function that makes an HTTP request from its arguments. The
// indexes count the call's arguments.
type RequestMaker struct {
	Display                string // "http.NewRequest"
	Ctx, Method, URL, Body int    // Ctx is NoArg when the request gets no context
	WithContext            string // the maker that also takes a context, when Ctx is NoArg
}

// RequestMakers are the library functions that make a request.
var RequestMakers = map[flow.FuncID]RequestMaker{
	{Pkg: HTTPPath, Name: "NewRequest"}:                     {"http.NewRequest", NoArg, 0, 1, 2, "http.NewRequestWithContext"},
	{Pkg: HTTPPath, Name: "NewRequestWithContext"}:          {"http.NewRequestWithContext", 0, 1, 2, 3, ""},
	{Pkg: RetryableHTTPPath, Name: "NewRequest"}:            {"retryablehttp.NewRequest", NoArg, 0, 1, 2, "retryablehttp.NewRequestWithContext"},
	{Pkg: RetryableHTTPPath, Name: "NewRequestWithContext"}: {"retryablehttp.NewRequestWithContext", 0, 1, 2, 3, ""},
}

// A RequestCopy is a library function that makes a request from another one, with the same
// method and URL. The indexes count the call's arguments, a method's receiver first.
type RequestCopy struct {
	From int // the request copied
	Ctx  int // the copy's context; NoArg when it keeps From's
}

// RequestCopies are the library functions that copy a request.
var RequestCopies = map[flow.FuncID]RequestCopy{
	{Pkg: HTTPPath, Recv: "Request", Name: "WithContext"}:          {From: 0, Ctx: 1},
	{Pkg: HTTPPath, Recv: "Request", Name: "Clone"}:                {From: 0, Ctx: 1},
	{Pkg: RetryableHTTPPath, Recv: "Request", Name: "WithContext"}: {From: 0, Ctx: 1},
	{Pkg: RetryableHTTPPath, Name: "FromRequest"}:                  {From: 0, Ctx: NoArg},
}

// ContextMaker returns the maker that gives a request the context display's maker leaves
// out ("http.NewRequestWithContext" for "http.NewRequest"), or "" when display names no such
// maker.
func ContextMaker(display string) string {
	for _, m := range RequestMakers {
		if m.Display == display {
			return m.WithContext
		}
	}
	return ""
}
