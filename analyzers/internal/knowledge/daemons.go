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

// registryCalls are the calls of those clients that make the daemon reach an image registry
// for the program: a pull, a push, a search, a login. The call stays on this machine, but
// each attempt of it is an attempt on the registry that every machine of a fleet pulls
// from: a remote dependency, for jitter and retry layers.
var registryCalls = map[string]bool{
	"ImagePull": true, "ImagePush": true, "ImageSearch": true, "ImageCreate": true,
	"RegistryLogin": true, "DistributionInspect": true, "PluginInstall": true,
	"PluginUpgrade": true, "PluginPush": true,
	// go-dockerclient and dockertest
	"PullImage": true, "PushImage": true, "SearchImages": true, "SearchImagesEx": true,
	"AuthCheck": true, "InspectDistribution": true,
}

// RegistryCall reports whether the method name of a client of a daemon on this machine (the
// package at path, see LocalDaemon) has the daemon reach an image registry (registryCalls).
func RegistryCall(path, name string) bool {
	return LocalDaemon(path) && registryCalls[name]
}

// PluginPkg is hashicorp/go-plugin. The gRPC connections it hands out (the conn of a
// GRPCPlugin's GRPCClient(ctx, *GRPCBroker, conn), GRPCBroker.Dial's) go to a plugin
// subprocess the program started on this machine, or back to the host that started it.
const PluginPkg = "github.com/hashicorp/go-plugin"
