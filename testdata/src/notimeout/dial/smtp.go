package dial

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/smtp"
	"time"
)

// Relaying mail: net/smtp's Dial and SendMail dial with net.Dial and take no timeout.

type relay struct {
	host string
	port int
	auth smtp.Auth
}

func (r *relay) addr() string { return fmt.Sprintf("%s:%d", r.host, r.port) }

// send relays a message over a plain connection: reported.
func (r *relay) send(from string, to []string, msg []byte) error {
	c, err := smtp.Dial(r.addr()) // want `smtp\.Dial has no timeout, so a stalled mail server hangs this call; use smtp\.NewClient on a timed dial`
	if err != nil {
		return fmt.Errorf("relay %s: %w", r.host, err)
	}
	defer c.Close()
	if err := c.StartTLS(&tls.Config{ServerName: r.host}); err != nil {
		return err
	}
	if r.auth != nil {
		if err := c.Auth(r.auth); err != nil {
			return err
		}
	}
	return deliver(c, from, to, msg)
}

// deliver sends one message over an open session.
func deliver(c *smtp.Client, from string, to []string, msg []byte) error {
	if err := c.Mail(from); err != nil {
		return err
	}
	for _, rcpt := range to {
		if err := c.Rcpt(rcpt); err != nil {
			return fmt.Errorf("rcpt %s: %w", rcpt, err)
		}
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(msg); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// notify uses SendMail: reported.
func (r *relay) notify(from, to string, body []byte) error {
	return smtp.SendMail(r.addr(), r.auth, from, []string{to}, body) // want `smtp\.SendMail has no timeout, so a stalled mail server hangs this call; use smtp\.NewClient on a timed dial`
}

// sendBounded dials with a timeout and hands the connection to smtp.NewClient: not reported.
func (r *relay) sendBounded(from string, to []string, msg []byte) error {
	conn, err := net.DialTimeout("tcp", r.addr(), 10*time.Second)
	if err != nil {
		return err
	}
	c, err := smtp.NewClient(conn, r.host)
	if err != nil {
		conn.Close()
		return err
	}
	defer c.Quit()
	return deliver(c, from, to, msg)
}

// local talks to a mail server on this machine: not reported.
func local(msg []byte) error {
	return smtp.SendMail("localhost:25", nil, "app@localhost", []string{"ops@localhost"}, msg)
}
