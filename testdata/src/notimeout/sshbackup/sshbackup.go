// Package sshbackup runs a backup command on a host over SSH. A ClientConfig without a
// Timeout dials with no timeout: an unresponsive host blocks the dial for minutes. One with
// a Timeout is bounded.
package sshbackup

import (
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"time"

	"golang.org/x/crypto/ssh"
)

// Options say where and as whom to connect.
type Options struct {
	Host     string
	Port     int
	User     string
	Password string
}

func clientConfig(opt *Options) *ssh.ClientConfig {
	return &ssh.ClientConfig{
		User:            opt.User,
		Auth:            []ssh.AuthMethod{ssh.Password(opt.Password)},
		HostKeyCallback: ssh.InsecureIgnoreHostKey(),
	}
}

// Run runs the backup on the host.
func Run(opt *Options, dir string) error {
	addr := net.JoinHostPort(opt.Host, strconv.Itoa(opt.Port))
	conn, err := ssh.Dial("tcp", addr, clientConfig(opt)) // related "sshbackup.go:25: this ssh.ClientConfig has no Timeout" // want `ssh.ClientConfig without a Timeout dials without a context, so an unresponsive host blocks this call for minutes`
	if err != nil {
		return fmt.Errorf("dial %s: %w", addr, err)
	}
	defer conn.Close()
	sess, err := conn.NewSession()
	if err != nil {
		return err
	}
	defer sess.Close()
	slog.Info("backup started", "host", opt.Host, "dir", dir)
	return sess.Run("tar czf /backup/out.tgz " + dir)
}

// RunBounded gives the dial a timeout.
func RunBounded(opt *Options, dir string) error {
	cfg := clientConfig(opt)
	cfg.Timeout = 15 * time.Second
	conn, err := ssh.Dial("tcp", net.JoinHostPort(opt.Host, strconv.Itoa(opt.Port)), cfg)
	if err != nil {
		return err
	}
	defer conn.Close()
	sess, err := conn.NewSession()
	if err != nil {
		return err
	}
	defer sess.Close()
	return sess.Run("tar czf /backup/out.tgz " + dir)
}
