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

type NextOpt interface{}

// MessagesContext iterates over the messages of a consumer.
type MessagesContext interface {
	Next(opts ...NextOpt) (Msg, error)
	Stop()
}

// pullSubscription is the package's own MessagesContext.
type pullSubscription struct{ pending []Msg }

func (s *pullSubscription) Next(opts ...NextOpt) (Msg, error) { // want Next:`takes the next item of its receiver`
	if len(s.pending) == 0 {
		return nil, ErrNoMessages
	}
	m := s.pending[0]
	s.pending = s.pending[1:]
	return m, nil
}

func (s *pullSubscription) Stop() {}

var ErrNoMessages = errorString("no messages")

type errorString string

func (e errorString) Error() string { return string(e) }

// orderedSubscription resets its consumer when a message is missing and reads on: the
// library's implementation consumes a source (its type is a MessagesContext), it does not
// retry an operation.
type orderedSubscription struct {
	current *pullSubscription
	resets  int
}

func (s *orderedSubscription) reset() error {
	s.resets++
	s.current = &pullSubscription{}
	return nil
}

func (s *orderedSubscription) Next(opts ...NextOpt) (Msg, error) { // want Next:`takes the next item of its receiver`
	for {
		msg, err := s.current.Next(opts...)
		if err != nil {
			if err := s.reset(); err != nil {
				return nil, err
			}
			continue
		}
		if msg.Subject() == "" {
			continue
		}
		return msg, nil
	}
}
