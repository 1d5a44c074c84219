package knowledge

import (
	"go/types"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// Methods of HTTP client libraries' responses that return the HTTP status code, as
// http.Response's StatusCode field does: resp.StatusCode() == 429 tests the answer.
var statusMethods = map[flow.FuncID]bool{
	{Pkg: "github.com/go-resty/resty/v2", Recv: "Response", Name: "StatusCode"}: true,
	{Pkg: "resty.dev/v3", Recv: "Response", Name: "StatusCode"}:                 true,
	{Pkg: "github.com/imroc/req/v3", Recv: "Response", Name: "GetStatusCode"}:   true,
}

// StatusMethod reports whether fn returns the HTTP status code of its receiver, a response.
func StatusMethod(fn *types.Func) bool { return fn != nil && statusMethods[flow.ID(fn)] }
