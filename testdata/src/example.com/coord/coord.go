// Package coord is a coordination-service client in the style of ZooKeeper's: every call
// queues a request, with a channel for its answer, for the loop that owns the connection.
package coord

import (
	"encoding/binary"
	"errors"
	"net"
	"sync/atomic"
	"time"
)

var (
	ErrNoNode     = errors.New("coord: node does not exist")
	ErrNodeExists = errors.New("coord: node already exists")
	ErrClosed     = errors.New("coord: connection closed")
)

type response struct {
	zxid int64
	err  error
}

type request struct {
	xid      int32
	opcode   int32
	path     string
	data     []byte
	recvChan chan response
}

type Conn struct {
	conn      net.Conn
	xid       int32
	sendChan  chan *request
	closeChan chan struct{}
	pending   map[int32]*request
}

func Connect(addr string, timeout time.Duration) (*Conn, error) {
	nc, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return nil, err
	}
	c := &Conn{conn: nc, sendChan: make(chan *request, 16), closeChan: make(chan struct{}), pending: make(map[int32]*request)}
	go c.sendLoop()
	return c, nil
}

func (c *Conn) sendLoop() error {
	buf := make([]byte, 1<<16)
	for {
		select {
		case req := <-c.sendChan:
			binary.BigEndian.PutUint32(buf[:4], uint32(len(req.data)))
			n := copy(buf[4:], req.data)
			c.pending[req.xid] = req
			if _, err := c.conn.Write(buf[:n+4]); err != nil {
				req.recvChan <- response{-1, err}
				c.conn.Close()
				return err
			}
		case <-c.closeChan:
			return nil
		}
	}
}

func (c *Conn) queue(opcode int32, path string, data []byte) <-chan response {
	rq := &request{xid: atomic.AddInt32(&c.xid, 1), opcode: opcode, path: path, data: data, recvChan: make(chan response, 1)}
	c.sendChan <- rq
	return rq.recvChan
}

func (c *Conn) do(opcode int32, path string, data []byte) (int64, error) {
	r := <-c.queue(opcode, path, data)
	return r.zxid, r.err
}

func (c *Conn) Create(path string, data []byte, flags int32) (string, error) {
	_, err := c.do(1, path, data)
	return path, err
}

func (c *Conn) Set(path string, data []byte, version int32) (int64, error) {
	return c.do(5, path, data)
}

func (c *Conn) Delete(path string, version int32) error {
	_, err := c.do(2, path, nil)
	return err
}

func (c *Conn) Children(path string) ([]string, int64, error) {
	_, err := c.do(8, path, nil)
	return nil, 0, err
}

func (c *Conn) Close() { close(c.closeChan) }
