package dial

import (
	"fmt"
	"log"
	"time"

	"github.com/gomodule/redigo/redis"
)

// A task broker over Redis with redigo: its dials bound the connect, and reads only with
// DialReadTimeout, so a command on a connection without one waits for a stalled server for
// good.

type redisBroker struct {
	url  string
	pool *redis.Pool
}

// newRedisPool dials without a read timeout: reported.
func newRedisPool(uri string) *redis.Pool {
	return &redis.Pool{
		MaxIdle:     3,
		IdleTimeout: 240 * time.Second,
		Dial: func() (redis.Conn, error) {
			c, err := redis.DialURL(uri) // want `redis\.DialURL sets no read timeout, so a stalled Redis server hangs every command; pass redis\.DialReadTimeout`
			if err != nil {
				return nil, fmt.Errorf("dial %s: %w", uri, err)
			}
			return c, nil
		},
	}
}

// pop dials with a password only: reported.
func (b *redisBroker) pop(addr, password, queue string) (string, error) {
	c, err := redis.Dial("tcp", addr, redis.DialPassword(password)) // want `redis\.Dial sets no read timeout, so a stalled Redis server hangs every command; pass redis\.DialReadTimeout`
	if err != nil {
		return "", err
	}
	defer c.Close()
	return redis.String(c.Do("LPOP", queue))
}

// ---- Not reported: a read timeout, or options the caller chose ----

func newTimedPool(uri string) *redis.Pool {
	return &redis.Pool{
		MaxIdle: 3,
		Dial: func() (redis.Conn, error) {
			return redis.DialURL(uri,
				redis.DialConnectTimeout(5*time.Second),
				redis.DialReadTimeout(10*time.Second),
				redis.DialWriteTimeout(10*time.Second))
		},
	}
}

func dialWith(addr string, opts ...redis.DialOption) redis.Conn {
	c, err := redis.Dial("tcp", addr, opts...)
	if err != nil {
		log.Printf("redis %s: %v", addr, err)
		return nil
	}
	return c
}
