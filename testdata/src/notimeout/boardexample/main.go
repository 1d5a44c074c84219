// Command boardexample shows how to use boardsdk, as SDKs' example programs do: its calls
// with context.Background() through the SDK's default client, or through the client the
// SDK's transport makes, are not reported (the SDK is, once, where each client is made); a
// client the example makes itself is reported where it is used.
package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"

	"notimeout/boardsdk"
)

func main() {
	user := flag.String("user", "", "user name; anonymous when empty")
	insecure := flag.Bool("insecure", false, "skip TLS verification")
	flag.Parse()

	// ---- Not reported: the SDK's default client ----
	anon, err := boardsdk.NewClient(nil)
	if err != nil {
		log.Fatal(err)
	}
	pr, _, err := anon.PullRequests.Get(context.Background(), "proj", "repo", 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pr.Status)

	// ---- Not reported: the client the SDK's transport makes, or the default ----
	var hc *http.Client
	if strings.TrimSpace(*user) != "" {
		tp := boardsdk.BasicAuthTransport{Username: *user, Password: os.Getenv("BOARD_TOKEN")}
		hc = tp.Client()
	}
	authed, err := boardsdk.NewClient(hc)
	if err != nil {
		log.Fatal(err)
	}
	changes, _, err := authed.Git.GetDiffs(context.TODO(), "proj", "repo", "main", "topic", 100, 0)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range changes {
		fmt.Println(c.Path)
	}

	// ---- Reported: a client the example makes, with no Timeout ----
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: *insecure}
	own, err := boardsdk.NewClient(&http.Client{Transport: tr})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := own.PullRequests.CreateComment(context.Background(), "proj", "repo", 1, &boardsdk.Comment{Content: "lgtm"}); err != nil { // related "boardsdk.go:150: PullRequestsService.CreateComment passes its context to Client.Do" "main.go:61: context.Background() has no deadline" // want `PullRequestsService\.CreateComment passes a context without a deadline to Client\.Do, so a stalled server hangs this call`
		log.Fatal(err)
	}
}
