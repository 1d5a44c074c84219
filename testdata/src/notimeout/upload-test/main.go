// Command upload-test exercises an upload path against a running server: a main package in a
// directory named like a test harness.
package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"
)

// ---- Not reported ----

func main() {
	ctx := context.Background()
	endpoint := os.Getenv("UPLOAD_ENDPOINT")
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, endpoint+"/objects/test", strings.NewReader("payload"))
	if err != nil {
		log.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	fmt.Println("status", resp.Status)
}
