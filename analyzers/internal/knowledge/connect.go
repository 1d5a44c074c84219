package knowledge

// Connect (connect-go): its generated clients send each RPC as an HTTP request through the
// connect.HTTPClient (an *http.Client) they were built with, so that client's Timeout bounds
// the call, as the RPC's context does. A call is (ctx, *connect.Request[T]) ->
// (*connect.Response[U], error) for a unary RPC, or a *connect.ServerStreamForClient[U] for a
// server stream.
var connectPkgs = []string{"connectrpc.com/connect", "github.com/bufbuild/connect-go"}

// ConnectPackage reports whether path is Connect's package (see connectPkgs).
func ConnectPackage(path string) bool {
	for _, p := range connectPkgs {
		if path == p {
			return true
		}
	}
	return false
}
