package knowledge

import "go/types"

// connSettings are methods of the standard library's connections (net.Conn and its concrete
// types, tls.Conn) that set or read the connection's own state on this machine: a deadline,
// an address, a socket option. They send nothing: a failure of one (a deadline set on a
// closed socket) is no failed attempt of a dependency.
var connSettings = map[string]bool{
	"SetDeadline": true, "SetReadDeadline": true, "SetWriteDeadline": true,
	"LocalAddr": true, "RemoteAddr": true, "SetKeepAlive": true, "SetKeepAlivePeriod": true,
	"SetKeepAliveConfig": true, "SetNoDelay": true, "SetLinger": true, "SetReadBuffer": true,
	"SetWriteBuffer": true,
}

// ConnSetting reports whether fn is such a method of a type of package net or crypto/tls.
func ConnSetting(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || !connSettings[fn.Name()] {
		return false
	}
	p := fn.Pkg().Path()
	return (p == NetPath || p == TLSPath) && fn.Type().(*types.Signature).Recv() != nil
}
