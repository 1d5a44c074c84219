// Command sdkexample shows how to use sdkclient: its calls with context.Background() are not
// reported, since the library's client is (once, where it is made); a handler that drops the
// context it is given is.
package main

import (
	"context"
	"log"
	"net/http"

	"notimeout/sdkclient"
)

func main() {
	c := sdkclient.New("https://api.example.com", sdkclient.WithToken("t"))
	w, err := c.GetWidget(context.Background(), "w1")
	if err != nil {
		log.Fatal(err)
	}
	w.Name = "renamed"
	if err := c.UpdateWidget(context.TODO(), w); err != nil {
		log.Fatal(err)
	}
	p := sdkclient.NewPinger()
	if err := p.Ping(context.Background(), "https://api.example.com/ping"); err != nil {
		log.Fatal(err)
	}
	http.HandleFunc("/widget", func(rw http.ResponseWriter, r *http.Request) {
		show(r.Context(), c, rw)
	})
	log.Fatal(http.ListenAndServe(":8080", nil))
}

// show drops the request's context: reported, whatever the client.
func show(ctx context.Context, c *sdkclient.Client, rw http.ResponseWriter) {
	_ = ctx
	w, err := c.GetWidget(context.Background(), "w1") // related "sdkclient.go:80: Client.GetWidget passes its context to Client.Do" "sdkexample.go:37: context.Background() has no deadline" // want `Client\.GetWidget's context has no deadline, so a stalled server hangs this call; pass ctx, not context\.Background\(\)`
	if err != nil {
		http.Error(rw, err.Error(), http.StatusBadGateway)
		return
	}
	rw.Write([]byte(w.Name))
}
