// Package calls exercises the remote model: each remote call is reported with -remote.report,
// with its kind, name, HTTP method and what bounds it.
package calls

import (
	"context"
	"crypto/tls"
	"database/sql"
	"net"
	"net/http"
	"strings"
	"time"

	"example.com/greeterpb"
	"google.golang.org/grpc"
)

func packageFuncs() {
	http.Get("https://example.com")                     // want `HTTP call http.Get \(GET\): unbounded \(http.DefaultClient; no context\)`
	http.Post("https://example.com", "text/plain", nil) // want `HTTP call http.Post \(POST\): unbounded`
	http.Head("https://example.com")                    // want `HTTP call http.Head \(HEAD\): unbounded`
	http.PostForm("https://example.com", nil)           // want `HTTP call http.PostForm \(POST\): unbounded`
	strings.ToUpper("not remote")
}

func clientDo(ctx context.Context) { // want clientDo:`passes the context of parameter 0 to http.Client.Do at calls.go:40`
	c := &http.Client{}
	req, _ := http.NewRequest(http.MethodPost, "https://example.com", nil)
	c.Do(req) // want `HTTP call http.Client.Do \(POST\): unbounded \(the http.Client made at line 27; context from http.NewRequest\)`

	timed := &http.Client{Timeout: 5 * time.Second}
	timed.Do(req) // want `HTTP call http.Client.Do \(POST\): bounded by http.Client.Timeout`

	dctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req2, _ := http.NewRequestWithContext(dctx, "PATCH", "https://example.com", nil)
	c.Do(req2) // want `HTTP call http.Client.Do \(PATCH\): bounded by context.WithTimeout`

	req3, _ := http.NewRequestWithContext(ctx, "GET", "https://example.com", nil)
	c.Do(req3) // want `HTTP call http.Client.Do \(GET\): unknown \(context from parameter 0; through the http.Client made at line 27\)`

	req4 := req.WithContext(context.TODO())
	http.DefaultClient.Do(req4) // want `HTTP call http.Client.Do \(POST\): unbounded \(http.DefaultClient; context from context.TODO\(\)\)`
}

func request(method string) *http.Request {
	req, _ := http.NewRequest(method, "https://example.com", nil)
	return req
}

func helperRequest() {
	http.DefaultClient.Do(request("DELETE")) // want `HTTP call http.Client.Do \(DELETE\): unbounded \(http.DefaultClient; context from http.NewRequest\)`
}

func handler(w http.ResponseWriter, r *http.Request) { // want handler:`passes the request context of parameter 1 to http.Client.Do at calls.go:57`
	out, _ := http.NewRequestWithContext(r.Context(), "GET", "https://example.com", nil)
	http.DefaultClient.Do(out) // want `HTTP call http.Client.Do \(GET\): unknown \(request from parameter 1; through http.DefaultClient\)`
}

func dials(ctx context.Context) { // want dials:`passes the context of parameter 0 to net.Dialer.DialContext at calls.go:67`
	net.Dial("tcp", "example.com:80")                     // want `dial call net.Dial: unbounded \(no context\)`
	net.Dial("udp", "example.com:53")                     // no handshake: not a remote call
	net.DialTimeout("tcp", "example.com:80", time.Second) // want `dial call net.DialTimeout: bounded by net.DialTimeout`
	d := &net.Dialer{Timeout: time.Second}
	d.DialContext(context.Background(), "tcp", "example.com:80") // want `dial call net.Dialer.DialContext: bounded by net.Dialer.Timeout`
	var zero net.Dialer
	zero.DialContext(ctx, "tcp", "example.com:80") // want `dial call net.Dialer.DialContext: unknown \(context from parameter 0; through the net.Dialer made at line 66\)`
	tls.Dial("tcp", "example.com:443", nil)        // want `dial call tls.Dial: unbounded \(no context\)`
	td := &tls.Dialer{NetDialer: d}
	td.Dial("tcp", "example.com:443") // want `dial call tls.Dialer.Dial: bounded by tls.Dialer.NetDialer \(net.Dialer.Timeout\)`
}

func grpcCalls(conn *grpc.ClientConn) {
	client := greeterpb.NewGreeterClient(conn)
	client.SayHello(context.Background(), &greeterpb.HelloRequest{})    // want `gRPC call GreeterClient.SayHello: unbounded \(context from context.Background\(\)\)`
	client.WatchHellos(context.Background(), &greeterpb.HelloRequest{}) // want `gRPC call GreeterClient.WatchHellos \(stream\): unbounded`
	grpc.Dial("example.com:443", grpc.WithBlock())                      // want `dial call grpc.Dial: unbounded \(no context\)`
	grpc.Dial("example.com:443")                                        // does not block
	grpc.NewClient("example.com:443", grpc.WithBlock())                 // never blocks
}

func sqlCalls(db *sql.DB) {
	db.Query("SELECT 1") // want `SQL call sql.DB.Query: unbounded \(no context\)`
	ctx, cancel := context.WithDeadline(context.Background(), time.Now())
	defer cancel()
	db.QueryRowContext(ctx, "SELECT 1")            // want `SQL call sql.DB.QueryRowContext: bounded by context.WithDeadline`
	tx, _ := db.BeginTx(context.Background(), nil) // want `SQL call sql.DB.BeginTx: unbounded \(context from context.Background\(\)\)`
	tx.Exec("UPDATE t SET a = 1")                  // want `SQL call sql.Tx.Exec: unbounded \(no context\)`
	tx.Commit()
}
