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

// golang.org/x/oauth2/google: the functions that find Application Default Credentials, or
// parse a credentials file, make a token source that keeps the context they are given for the
// token requests it sends later (to the token endpoint, the STS of a workload identity
// pool). The library reaches that source through types the model cannot follow (a credential
// file's type decides; newer versions delegate to cloud.google.com/go/auth), so it is said
// here: the index of that context among the arguments.
const googlePkg = "golang.org/x/oauth2/google"

var keepers = map[flow.FuncID]int{
	{Pkg: googlePkg, Name: "DefaultTokenSource"}:               0,
	{Pkg: googlePkg, Name: "FindDefaultCredentials"}:           0,
	{Pkg: googlePkg, Name: "FindDefaultCredentialsWithParams"}: 0,
	{Pkg: googlePkg, Name: "CredentialsFromJSON"}:              0,
	{Pkg: googlePkg, Name: "CredentialsFromJSONWithParams"}:    0,
}

// KeptContext returns the index among a call's arguments of the context that the function
// keeps for the HTTP requests of the token source it makes (see keepers), or -1.
func KeptContext(id flow.FuncID) int {
	if i, ok := keepers[id]; ok {
		return i
	}
	return -1
}
