// Package jetstream is a stub of github.com/nats-io/nats.go/jetstream (nats.go v1.55.0,
// public signatures only).
package jetstream

import (
	"context"
	"time"
)

type Header map[string][]string

func (h Header) Get(key string) string { return "" }

type SequencePair struct{ Consumer, Stream uint64 }

type MsgMetadata struct {
	Sequence     SequencePair
	NumDelivered uint64
	Stream       string
	Consumer     string
	Timestamp    time.Time
}

type Msg interface {
	Metadata() (*MsgMetadata, error)
	Data() []byte
	Headers() Header
	Subject() string
	Ack() error
	Nak() error
	NakWithDelay(delay time.Duration) error
	InProgress() error
	Term() error
}

type MessageHandler func(msg Msg)

type PullConsumeOpt interface{}

type ConsumeContext interface{ Stop() }

type Consumer interface {
	Consume(handler MessageHandler, opts ...PullConsumeOpt) (ConsumeContext, error)
	Next(opts ...interface{}) (Msg, error)
}

type JetStream interface {
	Consumer(ctx context.Context, stream string, consumer string) (Consumer, error)
}
