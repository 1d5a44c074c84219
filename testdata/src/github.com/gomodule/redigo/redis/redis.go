// Package redis is a stub of redigo: the shapes of its dials and connections.
package redis

import (
	"context"
	"net"
	"time"
)

type Conn interface {
	Close() error
	Err() error
	Do(commandName string, args ...any) (reply any, err error)
	Send(commandName string, args ...any) error
	Flush() error
	Receive() (reply any, err error)
}

type DialOption struct{ f func(*dialOptions) }

type dialOptions struct {
	readTimeout, writeTimeout, connectTimeout time.Duration
	password                                  string
}

func DialReadTimeout(d time.Duration) DialOption    { return DialOption{} }
func DialWriteTimeout(d time.Duration) DialOption   { return DialOption{} }
func DialConnectTimeout(d time.Duration) DialOption { return DialOption{} }
func DialPassword(password string) DialOption       { return DialOption{} }
func DialDatabase(db int) DialOption                { return DialOption{} }

func Dial(network, address string, options ...DialOption) (Conn, error) {
	_, err := net.DialTimeout(network, address, 30*time.Second)
	return nil, err
}

func DialContext(ctx context.Context, network, address string, options ...DialOption) (Conn, error) {
	return Dial(network, address, options...)
}

func DialURL(rawurl string, options ...DialOption) (Conn, error) { return Dial("tcp", rawurl, options...) }

type Pool struct {
	Dial        func() (Conn, error)
	MaxIdle     int
	IdleTimeout time.Duration
}

func (p *Pool) Get() Conn { return nil }

func String(reply any, err error) (string, error) { return "", err }
