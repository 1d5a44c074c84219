package recursion

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"log"
	"net/http"
	"time"
)

// A gateway's port-mapping call over SOAP: when the gateway answers that it supports only
// permanent leases, it is asked once more with a lease of 0, which cannot ask again. A
// different request, sent once after a definite refusal: not a retry.

type soapFault struct {
	Code        int    `xml:"Body>Fault>detail>UPnPError>errorCode"`
	Description string `xml:"Body>Fault>detail>UPnPError>errorDescription"`
}

type gateway struct {
	hc         *http.Client
	controlURL string
	urn        string
}

func (g *gateway) soap(ctx context.Context, action, body string) ([]byte, error) {
	envelope := `<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>` + body + `</s:Body></s:Envelope>`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.controlURL, bytes.NewBufferString(envelope))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", `text/xml; charset="utf-8"`)
	req.Header.Set("SOAPAction", fmt.Sprintf(`"%s#%s"`, g.urn, action))
	resp, err := g.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 400 {
		return b, fmt.Errorf("soap %s: %s", action, resp.Status)
	}
	return b, nil
}

// AddMapping asks for a mapping with the lease given, and once more with a permanent lease
// when only those are supported.
func (g *gateway) AddMapping(ctx context.Context, port int, lease time.Duration) error { // want AddMapping:"sends a POST request without an idempotency key"
	body := fmt.Sprintf(`<u:AddPortMapping xmlns:u="%s"><NewExternalPort>%d</NewExternalPort><NewLeaseDuration>%d</NewLeaseDuration></u:AddPortMapping>`,
		g.urn, port, lease/time.Second)
	resp, err := g.soap(ctx, "AddPortMapping", body)
	if err != nil && lease > 0 {
		var fault soapFault
		if uerr := xml.Unmarshal(resp, &fault); uerr != nil {
			return uerr
		}
		if fault.Code == 725 {
			return g.AddMapping(ctx, port, 0)
		}
		log.Printf("add mapping %d: %s (%d)", port, fault.Description, fault.Code)
	}
	return err
}

// Renew asks again with one second less each time the gateway fails: the same mapping sent
// again, reported.
func (g *gateway) Renew(ctx context.Context, port int, lease time.Duration) error {
	body := fmt.Sprintf(`<u:AddPortMapping xmlns:u="%s"><NewExternalPort>%d</NewExternalPort><NewLeaseDuration>%d</NewLeaseDuration></u:AddPortMapping>`,
		g.urn, port, lease/time.Second)
	_, err := g.soap(ctx, "AddPortMapping", body) // related "lease.go:73: retrying recursion" "lease.go:37: sent here by soap" // want `a POST request is retried with no idempotency key; soap must send one made before the retries`
	if err != nil && lease > time.Second {
		return g.Renew(ctx, port, lease-time.Second)
	}
	return err
}
