package dial

import (
	"context"
	"fmt"
	"net"
	"time"

	"golang.org/x/net/websocket"
)

// Event streams over x/net/websocket: Dial has no timeout on the dial nor on the handshake.

type streamEvent struct {
	Kind string `json:"kind"`
	Data string `json:"data"`
}

// subscribe dials with websocket.Dial: reported.
func subscribe(endpoint, origin string, events chan<- streamEvent) error {
	ws, err := websocket.Dial(endpoint, "", origin) // want `websocket\.Dial has no timeout, so a stalled server hangs this call; use DialConfig with a timed Dialer`
	if err != nil {
		return fmt.Errorf("subscribe %s: %w", endpoint, err)
	}
	defer ws.Close()
	for {
		var ev streamEvent
		if err := websocket.JSON.Receive(ws, &ev); err != nil {
			return err
		}
		events <- ev
	}
}

// subscribeCtx has a context at hand: reported, pointing at it.
func subscribeCtx(ctx context.Context, endpoint, origin string) (*websocket.Conn, error) {
	return websocket.Dial(endpoint, "", origin) // want `websocket\.Dial has no timeout, so a stalled server hangs this call; use a Config's DialContext with ctx`
}

// subscribeTimed gives the dial a Dialer with a Timeout and a context: not reported.
func subscribeTimed(ctx context.Context, endpoint, origin string) (*websocket.Conn, error) {
	cfg, err := websocket.NewConfig(endpoint, origin)
	if err != nil {
		return nil, err
	}
	cfg.Dialer = &net.Dialer{Timeout: 10 * time.Second}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	return cfg.DialContext(ctx)
}
