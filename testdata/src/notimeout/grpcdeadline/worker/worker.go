// Package worker calls the stub controlplane keeps; which connection main gives controlplane.Init
// it cannot see, and a connection without an interceptor hangs on a stalled server.
package worker

import (
	"context"
	"log"

	"example.com/greeterpb"

	"notimeout/grpcdeadline/controlplane"
)

// ---- Reported ----

func reportWarning(msg string) {
	if _, err := controlplane.Client.SayHello(context.Background(), &greeterpb.HelloRequest{}); err != nil { // related "worker.go:17: context.Background() has no deadline" // want `GreeterClient\.SayHello's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
		log.Printf("report warning %q: %v", msg, err)
	}
}
