// Package streamresume follows a replication stream: it reads packets from the server and,
// when the connection breaks, reconnects from the last position it has, once a second, until
// it succeeds or gives up; then it goes on reading. The reading loop does not spin when a
// reconnect fails: the reconnect loop goes round on that failure, after its wait, and the
// reading loop only once it has reconnected. The reconnect loop's fixed second is its own
// wait between attempts, reported (followers of one server reconnect in step).
package streamresume

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"nojitter/streamresume/wire"
)

type Config struct {
	Addr                 string
	MaxReconnectAttempts int // 0: for ever
	ReadTimeout          time.Duration
	Logger               *slog.Logger
}

type Event struct {
	Pos  uint32
	Body []byte
}

type Follower struct {
	cfg     Config
	ctx     context.Context
	conn    *wire.Conn
	pos     uint32
	retries int
	wg      sync.WaitGroup
	events  chan Event
	errs    chan error
}

func (f *Follower) reconnect() error {
	if f.conn != nil {
		f.conn.Close()
	}
	conn, err := wire.Dial(f.cfg.Addr, 10*time.Second)
	if err != nil {
		return err
	}
	var req [4]byte
	binary.BigEndian.PutUint32(req[:], f.pos)
	if err := conn.WritePacket(req[:]); err != nil {
		conn.Close()
		return err
	}
	f.conn = conn
	return nil
}

func (f *Follower) run() {
	defer f.wg.Done()
	for {
		data, err := f.conn.ReadPacket()
		select {
		case <-f.ctx.Done():
			return
		default:
		}
		if err != nil {
			f.cfg.Logger.Error("stream broken", "err", err)
			for {
				select {
				case <-f.ctx.Done():
					return
				case <-time.After(time.Second): // related "streamresume.go:73: retry loop" // want `retry loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
					f.retries++
					if err = f.reconnect(); err != nil {
						if f.cfg.MaxReconnectAttempts > 0 && f.retries >= f.cfg.MaxReconnectAttempts {
							f.errs <- fmt.Errorf("reconnect: giving up after %d attempts: %w", f.retries, err)
							return
						}
						f.cfg.Logger.Warn("reconnect failed", "err", err, "attempt", f.retries)
						continue
					}
				}
				break
			}
			continue
		}
		if f.cfg.ReadTimeout > 0 {
			_ = f.conn.SetReadDeadline(time.Now().Add(f.cfg.ReadTimeout))
		}
		f.retries = 0
		if len(data) < 4 {
			f.errs <- errors.New("short packet")
			return
		}
		f.pos = binary.BigEndian.Uint32(data[:4])
		select {
		case f.events <- Event{Pos: f.pos, Body: data[4:]}:
		case <-f.ctx.Done():
			return
		}
	}
}
