// Package mail is a stand-in for gopkg.in/mail.v2 with its API's shape.
package mail

import (
	"crypto/tls"
	"net"
	"strconv"
	"time"
)

type Message struct{ headers map[string][]string }

func NewMessage() *Message                            { return &Message{headers: map[string][]string{}} }
func (m *Message) SetHeader(field string, v ...string) { m.headers[field] = v }
func (m *Message) SetBody(contentType, body string)     {}

type Dialer struct {
	Host      string
	Port      int
	Username  string
	Password  string
	LocalName string
	TLSConfig *tls.Config
	Timeout   time.Duration
}

func NewDialer(host string, port int, username, password string) *Dialer {
	return &Dialer{Host: host, Port: port, Username: username, Password: password, Timeout: 10 * time.Second}
}

type SendCloser interface{ Close() error }

func (d *Dialer) Dial() (SendCloser, error) {
	conn, err := net.DialTimeout("tcp", d.Host+":"+strconv.Itoa(d.Port), d.Timeout)
	if err != nil {
		return nil, err
	}
	return conn, nil
}

func (d *Dialer) DialAndSend(m ...*Message) error {
	s, err := d.Dial()
	if err != nil {
		return err
	}
	return s.Close()
}
