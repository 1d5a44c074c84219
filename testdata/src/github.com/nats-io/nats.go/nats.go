// Package nats is a stub of github.com/nats-io/nats.go (v1.37.0, public signatures only): the
// legacy JetStream API, whose messages are *Msg.
package nats

import (
	"context"
	"time"
)

type Header map[string][]string

type Msg struct {
	Subject string
	Reply   string
	Header  Header
	Data    []byte
	Sub     *Subscription
}

type AckOpt interface{}

func Context(ctx context.Context) ContextOpt { return ContextOpt{ctx} }

type ContextOpt struct{ Ctx context.Context }

func (m *Msg) Ack(opts ...AckOpt) error                               { return nil }
func (m *Msg) AckSync(opts ...AckOpt) error                           { return nil }
func (m *Msg) Nak(opts ...AckOpt) error                               { return nil }
func (m *Msg) NakWithDelay(delay time.Duration, opts ...AckOpt) error { return nil }
func (m *Msg) InProgress(opts ...AckOpt) error                        { return nil }
func (m *Msg) Term(opts ...AckOpt) error                              { return nil }

type Subscription struct{ Subject string }

type PullOpt interface{}

func (s *Subscription) Fetch(batch int, opts ...PullOpt) ([]*Msg, error) { return nil, nil }
func (s *Subscription) Unsubscribe() error                               { return nil }

type SubOpt interface{}

type MsgHandler func(msg *Msg)

type JetStreamContext interface {
	PullSubscribe(subj, durable string, opts ...SubOpt) (*Subscription, error)
	Subscribe(subj string, cb MsgHandler, opts ...SubOpt) (*Subscription, error)
}

type Conn struct{}

func Connect(url string, options ...Option) (*Conn, error) { return &Conn{}, nil }

type Option func(*Options) error

type Options struct{ Url string }

func (nc *Conn) JetStream(opts ...JSOpt) (JetStreamContext, error) { return nil, nil }

type JSOpt interface{}
