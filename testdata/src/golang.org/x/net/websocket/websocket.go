// Package websocket is a stub of golang.org/x/net/websocket: the shapes of its dials.
package websocket

import (
	"context"
	"net"
	"net/url"
)

type Conn struct{ net.Conn }

type Config struct {
	Location *url.URL
	Origin   *url.URL
	Dialer   *net.Dialer
}

func NewConfig(server, origin string) (*Config, error) { return &Config{}, nil }

func Dial(url_, protocol, origin string) (*Conn, error) { return DialConfig(&Config{}) }

func DialConfig(config *Config) (*Conn, error) {
	d := config.Dialer
	if d == nil {
		d = &net.Dialer{}
	}
	c, err := d.Dial("tcp", config.Location.Host)
	return &Conn{c}, err
}

func (config *Config) DialContext(ctx context.Context) (*Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, "tcp", config.Location.Host)
	return &Conn{c}, err
}

type Codec struct{}

var JSON Codec

func (Codec) Send(ws *Conn, v any) error    { return nil }
func (Codec) Receive(ws *Conn, v any) error { return nil }
