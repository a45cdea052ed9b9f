package app

// Job arguments live in app so the Service can enqueue them (InsertTx) without importing jobs.

// PlatformStatusExpireArgs is the periodic job that ends platform-status windows.
type PlatformStatusExpireArgs struct{}

func (PlatformStatusExpireArgs) Kind() string { return "platform_status_expire" }

// DeliverMailArgs delivers one mail of the outbox through SMTP (enqueued only when SMTP_URL is set).
type DeliverMailArgs struct {
	MailID string `json:"mail_id"`
}

func (DeliverMailArgs) Kind() string { return "deliver_mail" }
