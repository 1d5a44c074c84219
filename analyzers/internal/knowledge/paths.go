package knowledge

// The packages of the standard library and the well-known modules whose APIs the tables
// describe, by import path.
const (
	HTTPPath      = "net/http"
	NetPath       = "net"
	TLSPath       = "crypto/tls"
	SMTPPath      = "net/smtp"
	WebSocketPath = "golang.org/x/net/websocket"
	MailPath      = "gopkg.in/mail.v2"
	SSHPath       = "golang.org/x/crypto/ssh"
	GRPCPath      = "google.golang.org/grpc"
	ContextPath   = "context"
)

// RedigoPaths are redigo's paths, the current and the old one: its dials bound the connect
// (30 s by default), and a read timeout only when DialReadTimeout is given, so commands on
// the connection wait for a stalled server for good.
var RedigoPaths = []string{"github.com/gomodule/redigo/redis", "github.com/garyburd/redigo/redis"}

// GophercloudAuth are the openstack packages of gophercloud v1 and v2, whose
// AuthenticatedClient makes a ProviderClient with the zero http.Client (no Timeout) and
// authenticates on it at once: v1's without a context (context.Background), v1's
// ...WithContext and v2's with the one it is given.
var GophercloudAuth = []string{"github.com/gophercloud/gophercloud/openstack", "github.com/gophercloud/gophercloud/v2/openstack"}
