// Package frames handles the push frames a server sends between replies. Its loop reads them
// one after another through another package's reader: each round consumes a frame, a skipped
// or failed one included, so the loop works through the buffer; it retries nothing. The
// reader's methods are known to consume through the ConsumesFact of package wire.
package frames

import (
	"context"
	"fmt"
	"log/slog"

	"nojitter/frames/wire"
)

// Handler handles one push notification; it may call the server back.
type Handler interface {
	Handle(ctx context.Context, name string, frame []byte) error
}

// Processor dispatches push frames by name.
type Processor struct {
	handlers map[string]Handler
	ownNames map[string]bool // pushes the client reads itself, as replies
}

// ProcessPending handles the push frames already buffered, stopping at the first reply or at
// a push the client reads itself. A frame whose name cannot be read is consumed and skipped.
func (p *Processor) ProcessPending(ctx context.Context, rd *wire.Reader) error {
	for rd.Buffered() > 0 {
		kind, err := rd.PeekKind()
		if err != nil {
			return err
		}
		if kind != wire.KindPush {
			break
		}
		name, err := rd.PeekName()
		if err != nil {
			slog.Debug("push frame without a readable name", "err", err)
			if err := rd.Discard(); err != nil {
				return err
			}
			continue
		}
		if p.ownNames[name] {
			break
		}
		frame, err := rd.ReadFrame()
		if err != nil {
			return fmt.Errorf("read push %s: %w", name, err)
		}
		if h, ok := p.handlers[name]; ok {
			if err := h.Handle(ctx, name, frame); err != nil {
				slog.Warn("push handler failed", "name", name, "err", err)
			}
		}
	}
	return nil
}
