// Package smtpalert sends alert emails: an authenticated dialer from mail.NewDialer has a 10 s
// timeout; one written as a literal for a server without a password has none.
package smtpalert

import (
	"crypto/tls"
	"fmt"
	"strings"

	mail "gopkg.in/mail.v2"
)

type Config struct {
	Host, From, To, Password string
	Port                     int
	Insecure                 bool
}

func Send(cfg Config, subject, body string) error {
	m := mail.NewMessage()
	m.SetHeader("From", cfg.From)
	m.SetHeader("To", strings.Split(cfg.To, ",")...)
	m.SetHeader("Subject", subject)
	m.SetBody("text/plain", body)
	var d *mail.Dialer
	if cfg.Password == "" {
		local := "localhost"
		if parts := strings.Split(cfg.From, "@"); len(parts) == 2 {
			local = parts[1]
		}
		d = &mail.Dialer{Host: cfg.Host, Port: cfg.Port, LocalName: local}
	} else {
		d = mail.NewDialer(cfg.Host, cfg.Port, cfg.From, cfg.Password)
	}
	if cfg.Insecure {
		d.TLSConfig = &tls.Config{InsecureSkipVerify: true}
	}
	if err := d.DialAndSend(m); err != nil { // related "smtpalert.go:31: this mail.Dialer has no Timeout" // want `mail\.Dialer without a Timeout dials without a context, so a stalled mail server hangs this call; set its Timeout`
		return fmt.Errorf("send alert: %w", err)
	}
	return nil
}

// Authenticated only: NewDialer's timeout holds. Not reported.
func SendAuthenticated(cfg Config, subject string) error {
	m := mail.NewMessage()
	m.SetHeader("Subject", subject)
	return mail.NewDialer(cfg.Host, cfg.Port, cfg.From, cfg.Password).DialAndSend(m)
}
