// Package tfcloud stands for a cloud SDK that Terraform providers call (shaped like
// bce-sdk-go): create calls take a client token, sent as a query parameter or a body field.
package tfcloud

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
)

type Request struct {
	Method string
	URI    string
	params map[string]string
}

func (r *Request) SetParam(key, value string) {
	if r.params == nil {
		r.params = make(map[string]string)
	}
	r.params[key] = value
}

type Client struct{ HTTP *http.Client }

func (c *Client) send(r *Request) error { return nil }

type CreateRecordArgs struct {
	Rr    string `json:"rr"`
	Type  string `json:"type"`
	Value string `json:"value"`
}

// CreateRecord sends clientToken as the "clientToken" query parameter.
func (c *Client) CreateRecord(zone string, args *CreateRecordArgs, clientToken string) error {
	req := &Request{Method: http.MethodPost, URI: "/v1/dns/zone/" + zone + "/record"}
	req.SetParam("clientToken", clientToken)
	return c.send(req)
}

type CreateInstanceArgs struct {
	Name        string `json:"name"`
	ClientToken string `json:"-"`
}

func (c *Client) CreateInstance(args *CreateInstanceArgs) (string, error) { return "i-1", nil }

// NewUUID returns a random identifier.
func NewUUID() string {
	var buf [16]byte
	if _, err := rand.Read(buf[:]); err != nil {
		panic(err)
	}
	return hex.EncodeToString(buf[:])
}
