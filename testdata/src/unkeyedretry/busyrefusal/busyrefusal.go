// Package busyrefusal reconfigures a gateway of a cloud director API. The API refuses a change
// while the gateway is busy with another one; the loops send the POST again only when the
// answer says so, read through the package's response check: the refused request changed
// nothing, so sending it again cannot repeat an effect.
package busyrefusal

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"regexp"
	"time"
)

var errBusy = regexp.MustCompile(`is busy completing an operation.$`)

var errTimedOut = regexp.MustCompile(`(?i)timeout|connection reset`)

type Client struct {
	HTTP *http.Client
	Base string
}

type DHCPConfig struct {
	XMLName  xml.Name `xml:"EdgeGatewayServiceConfiguration"`
	LeaseSec int      `xml:"GatewayDhcpService>DefaultLeaseTime"`
}

type Task struct {
	HREF   string `xml:"href,attr"`
	Status string `xml:"status,attr"`
}

// apiError is the error document the API answers with.
type apiError struct {
	Message string `xml:"message,attr"`
	Code    int    `xml:"majorErrorCode,attr"`
}

func (e *apiError) Error() string { return fmt.Sprintf("API error %d: %s", e.Code, e.Message) }

// checkResp turns an error answer into an error.
func checkResp(resp *http.Response, err error) (*http.Response, error) {
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp, nil
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var ae apiError
	if xml.Unmarshal(body, &ae) != nil {
		return nil, errors.New(resp.Status)
	}
	return nil, &ae
}

// ConfigureDHCP is sent again only while the gateway is busy: not reported.
func (c *Client) ConfigureDHCP(gateway string, cfg DHCPConfig) (*Task, error) {
	out, err := xml.MarshalIndent(cfg, "  ", "    ")
	if err != nil {
		return nil, fmt.Errorf("marshal: %w", err)
	}
	var resp *http.Response
	for {
		req, err := http.NewRequest(http.MethodPost, c.Base+"/admin/edgeGateway/"+gateway+"/action/configureServices", bytes.NewReader(out))
		if err != nil {
			return nil, err
		}
		req.Header.Add("Content-Type", "application/vnd.vmware.admin.edgeGatewayServiceConfiguration+xml")
		req.Header.Add("Accept", "application/*+xml;version=36.0")
		resp, err = checkResp(c.HTTP.Do(req))
		if err != nil {
			if errBusy.MatchString(err.Error()) {
				log.Printf("gateway %s busy, retrying", gateway)
				time.Sleep(3 * time.Second)
				continue
			}
			return nil, fmt.Errorf("configure gateway %s: %w", gateway, err)
		}
		break
	}
	defer resp.Body.Close()
	var t Task
	if err := xml.NewDecoder(resp.Body).Decode(&t); err != nil {
		return nil, fmt.Errorf("decode task: %w", err)
	}
	return &t, nil
}

// CreateNetwork is sent again after a timeout too: the first may have created the network.
func (c *Client) CreateNetwork(vdc string, body []byte) (*Task, error) {
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		req, rerr := http.NewRequest(http.MethodPost, c.Base+"/admin/vdc/"+vdc+"/networks", bytes.NewReader(body)) // related "busyrefusal.go:100: retry loop" related "busyrefusal.go:106: sent here" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if rerr != nil {
			return nil, rerr
		}
		req.Header.Add("Content-Type", "application/vnd.vmware.vcloud.orgVdcNetwork+xml")
		resp, err = checkResp(c.HTTP.Do(req))
		if err != nil && errTimedOut.MatchString(err.Error()) {
			time.Sleep(time.Duration(attempt+1) * time.Second)
			continue
		}
		break
	}
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var t Task
	return &t, xml.NewDecoder(resp.Body).Decode(&t)
}
