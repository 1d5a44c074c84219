package knowledge

import (
	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// golang.org/x/oauth2: Config.Client(ctx, tok) and Config.TokenSource(ctx, tok) keep ctx for one
// use only, refreshing tok at its token endpoint once it expires. A token that carries no
// RefreshToken is never refreshed that way (with no Expiry it stays valid; once expired the
// source fails without a request): the kept context is never sent.
const oauth2Pkg = "golang.org/x/oauth2"

var refreshers = map[flow.FuncID]int{
	{Pkg: oauth2Pkg, Recv: "Config", Name: "Client"}:      2, // (c, ctx, t)
	{Pkg: oauth2Pkg, Recv: "Config", Name: "TokenSource"}: 2,
}

// RefreshedToken returns, for a function that keeps its context only to refresh a token it is
// given, the index among the call's arguments (receiver first) of that token, and the token
// field without which nothing is refreshed; -1 for other functions.
func RefreshedToken(id flow.FuncID) (arg int, field string) {
	if i, ok := refreshers[id]; ok {
		return i, "RefreshToken"
	}
	return -1, ""
}
