package loops

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// A collector of a PostgreSQL logical replication stream: each round waits at most a few
// seconds for the next message and goes round when none came in time. Each round takes the
// next message of the stream; it does not send a request again.

const (
	walReceiveTimeout = 5 * time.Second
	walStandbyEvery   = 10 * time.Second
)

type walCollector struct {
	conn   *pgconn.PgConn
	logger *slog.Logger
	mu     sync.Mutex
	buf    [][]byte
	stop   context.CancelFunc
	wg     sync.WaitGroup
}

func (c *walCollector) sendStandby(ctx context.Context) error { return nil }

func (c *walCollector) receive(ctx context.Context) {
	defer c.wg.Done()
	nextStandby := time.Now().Add(walStandbyEvery)
	for {
		if ctx.Err() != nil {
			return
		}
		if time.Now().After(nextStandby) {
			if err := c.sendStandby(ctx); err != nil {
				c.logger.Warn(fmt.Sprintf("standby status: %v", err))
			}
			nextStandby = time.Now().Add(walStandbyEvery)
		}
		rctx, cancel := context.WithDeadline(ctx, time.Now().Add(walReceiveTimeout))
		msg, err := c.conn.ReceiveMessage(rctx)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			if pgconn.Timeout(err) || rctx.Err() != nil {
				continue
			}
			c.logger.Error(fmt.Sprintf("receive: %v", err))
			c.stop()
			return
		}
		if e, ok := msg.(*pgconn.ErrorResponse); ok {
			c.logger.Error("stream error", "code", e.Code, "message", e.Message)
			c.stop()
			return
		}
		if cd, ok := msg.(*pgconn.CopyData); ok {
			c.mu.Lock()
			c.buf = append(c.buf, cd.Data)
			c.mu.Unlock()
		}
	}
}
