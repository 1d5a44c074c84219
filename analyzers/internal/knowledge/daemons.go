package knowledge

import "strings"

// Clients of a daemon on this machine: the Docker Engine API, which these libraries reach
// through the local socket (/var/run/docker.sock) unless DOCKER_HOST says otherwise. A call
// of theirs stays on this machine: it is not the remote dependency that jitter and a single
// retry layer protect (a harness pulling an image again after the daemon refused), its
// context is not the only thing between a program and a hang on the network, and its POSTs
// (create a container, connect a network, pull an image) take no idempotency key: the
// Engine API has none, and its writes name what they change.
var localDaemons = []string{
	"github.com/docker/docker/client",
	"github.com/moby/moby/client",
	"github.com/fsouza/go-dockerclient",
	"github.com/ory/dockertest/v3/docker",
}

// LocalDaemon reports whether the package at path is a client of a daemon on this machine
// (see localDaemons), or a package inside one.
func LocalDaemon(path string) bool {
	for _, p := range localDaemons {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// PluginPkg is hashicorp/go-plugin. The gRPC connections it hands out (the conn of a
// GRPCPlugin's GRPCClient(ctx, *GRPCBroker, conn), GRPCBroker.Dial's) go to a plugin
// subprocess the program started on this machine, or back to the host that started it.
const PluginPkg = "github.com/hashicorp/go-plugin"
