package loops

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"
)

// A certificate-association lookup that follows an alias: it asks at the alias's target first
// and, when that answer is missing or unsigned, asks once at the original name. It falls
// back; it does not retry.

var (
	errCertInsecure  = errors.New("answer not signed")
	errCertNoRecords = errors.New("no records")
)

type certDomain struct {
	ASCII   string
	Unicode string
}

type certAnswer struct {
	Signed bool
}

type certRecord struct {
	Usage uint8
	Data  []byte
}

type certResolver interface {
	LookupCertRecords(ctx context.Context, port int, name string) ([]certRecord, certAnswer, error)
}

type netCertResolver struct {
	r   *net.Resolver
	log *slog.Logger
}

func (n netCertResolver) LookupCertRecords(ctx context.Context, port int, name string) ([]certRecord, certAnswer, error) {
	txts, err := n.r.LookupTXT(ctx, fmt.Sprintf("_%d._tcp.%s", port, name))
	if err != nil {
		var dnsErr *net.DNSError
		if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
			return nil, certAnswer{Signed: true}, errCertNoRecords
		}
		return nil, certAnswer{}, err
	}
	recs := make([]certRecord, 0, len(txts))
	for _, t := range txts {
		recs = append(recs, certRecord{Usage: 3, Data: []byte(t)})
	}
	n.log.Debug("cert records", "name", name, "count", len(recs))
	return recs, certAnswer{Signed: true}, nil
}

func newCertResolver(log *slog.Logger) certResolver {
	return netCertResolver{r: net.DefaultResolver, log: log}
}

// isCertNotFound reports whether err says the name has no such records.
func isCertNotFound(err error) bool {
	var dnsErr *net.DNSError
	return errors.Is(err, errCertNoRecords) || errors.As(err, &dnsErr) && dnsErr.IsNotFound
}

// ---- Not reported: once more, at the original name ----

func certRecords(ctx context.Context, r certResolver, port int, host, target certDomain, targetSigned bool) ([]certRecord, certDomain, error) {
	base := host
	if targetSigned {
		base = target
	}
	var recs []certRecord
	var ans certAnswer
	for {
		var err error
		recs, ans, err = r.LookupCertRecords(ctx, port, base.ASCII+".")
		if base != host && (isCertNotFound(err) || !ans.Signed) {
			base = host
			continue
		}
		if !ans.Signed {
			return nil, certDomain{}, errCertInsecure
		} else if isCertNotFound(err) {
			return nil, certDomain{}, errCertNoRecords
		} else if err != nil {
			return nil, certDomain{}, fmt.Errorf("lookup cert records at %s: %w", base.ASCII, err)
		}
		break
	}
	return recs, base, nil
}

// ---- Not reported: a flag the way round sets, and the backup address ----

func dialPreferred(ctx context.Context, primary, backup string) (net.Conn, error) {
	d := net.Dialer{Timeout: 5 * time.Second}
	addr := primary
	triedBackup := false
	for {
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil && !triedBackup {
			slog.Warn("primary unreachable, trying backup", "addr", addr, "err", err)
			triedBackup = true
			addr = backup
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("dial %s and %s: %w", primary, backup, err)
		}
		return c, nil
	}
}

// ---- Reported: the same address again, until the error changes ----

func dialSame(ctx context.Context, addr string) (net.Conn, error) {
	d := net.Dialer{Timeout: 5 * time.Second}
	var last error
	for { // related "certalias.go:125: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil && err != last {
			slog.Warn("dial failed", "addr", addr, "err", err)
			last = err
			continue
		}
		return c, err
	}
}
