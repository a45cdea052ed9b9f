package app

import (
	"bytes"
	"context"
	"fmt"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// WebhooksPath is the dashboard page of webhooks (notifications and emails link to it).
const WebhooksPath = "/webhooks"

// DeactivateFailingWebhooks deactivates every active webhook whose deliveries have all failed for
// longer than the configured period (WEBHOOK_DEACTIVATE_AFTER), and tells the organization: an
// in-app notification to its owners and admins, an email to its owners, an audit item. It answers
// the webhooks deactivated.
func (s *Service) DeactivateFailingWebhooks(ctx context.Context) ([]Webhook, error) {
	h := s.hooks
	now := s.now().UTC()
	var out []Webhook
	err := store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		rows, err := q.DeactivateFailingWebhooks(ctx, store.DeactivateFailingWebhooksParams{At: now, Cutoff: now.Add(-h.opts.DeactivateAfter)})
		if err != nil {
			return fmt.Errorf("app: deactivate webhooks: %w", err)
		}
		for _, r := range rows {
			w, err := s.webhookFromRow(h, r)
			if err != nil {
				return err
			}
			w.Secret = ""
			out = append(out, *w)
			since := now.Sub(*r.FailingSince).Round(time.Minute)
			if err := s.Audit(ctx, tx, AuditItem{OrganizationID: r.OrganizationID, ActorType: "SYSTEM", ActorName: "Crier",
				Action: "webhook.deactivated", TargetType: "webhook", TargetID: r.ID,
				Metadata: map[string]any{"url": r.Url, "failingSince": r.FailingSince}}); err != nil {
				return err
			}
			if err := s.notify(ctx, tx, r.OrganizationID, NotificationParams{Type: NotificationWebhookDeactivated,
				Roles: []Role{RoleOwner, RoleAdmin}, Title: "Webhook deactivated",
				Message: fmt.Sprintf("Every delivery to %s has failed for %s, so Crier stopped sending to it. Fix the endpoint, then turn the webhook back on.", r.Url, since),
				Link:    WebhooksPath, Data: map[string]any{"webhookId": r.ID, "url": r.Url}}); err != nil {
				return err
			}
			owners, err := q.ListOrganizationOwners(ctx, r.OrganizationID)
			if err != nil {
				return fmt.Errorf("app: deactivate webhooks: %w", err)
			}
			for _, o := range owners {
				name := o.Email
				if o.FirstName != nil && *o.FirstName != "" {
					name = *o.FirstName
				}
				if err := s.mailWebhookDeactivated(ctx, tx, o.Email, webhookMailData{Name: name, WebhookURL: r.Url, Since: since.String(),
					Link: strings.TrimRight(s.opts.BaseURL, "/") + WebhooksPath}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// MailWebhookDeactivated is the mail kind of the deactivation email.
const MailWebhookDeactivated MailKind = "webhook_deactivated"

// webhookMailData is what the deactivation email shows (Subject, Link and ButtonLabel feed the
// shared layout of mailtemplates).
type webhookMailData struct {
	Subject     string
	Name        string
	WebhookURL  string
	Since       string
	Link        string
	ButtonLabel string
}

const webhookMailText = `{{define "subject"}}Crier stopped sending to your webhook{{end}}
{{- define "text"}}Hello {{.Name}},

Every delivery to your webhook {{.WebhookURL}} has failed for {{.Since}}, so Crier deactivated it.
Events that happen while it is off are not delivered to it.

Fix the endpoint, then turn the webhook back on here:

{{.Link}}

— Crier
{{end}}`

const webhookMailHTML = `{{define "content"}}<p>Hello {{.Name}},</p>
<p>Every delivery to your webhook <strong>{{.WebhookURL}}</strong> has failed for {{.Since}}, so Crier deactivated it. Events that happen while it is off are not delivered to it.</p>
<p>Fix the endpoint, then turn the webhook back on.</p>
{{template "button" .}}{{end}}`

var webhookMailTemplates = struct {
	text *texttemplate.Template
	html *htmltemplate.Template
}{
	text: texttemplate.Must(texttemplate.New("webhook").Parse(webhookMailText)),
	html: htmltemplate.Must(htmltemplate.Must(htmltemplate.ParseFS(mailTemplateFiles, "mailtemplates/layout.html.tmpl")).New("webhook_deactivated").Parse(webhookMailHTML)),
}

// mailWebhookDeactivated queues the deactivation email to one owner in tx.
//
// SEAM: the mail capability's sendMail only renders its own registered kinds with its own mailData,
// which has no field for a webhook's URL, so this renders its templates here (inside the shared
// layout) and hands the result to queueRenderedMail. When mail grows a "queue a rendered email"
// function, queueRenderedMail should become that call.
func (s *Service) mailWebhookDeactivated(ctx context.Context, tx pgx.Tx, to string, d webhookMailData) error {
	d.ButtonLabel = "Open webhooks"
	var b bytes.Buffer
	if err := webhookMailTemplates.text.ExecuteTemplate(&b, "subject", d); err != nil {
		return fmt.Errorf("app: mail %s: %w", MailWebhookDeactivated, err)
	}
	d.Subject = strings.Join(strings.Fields(b.String()), " ")
	b.Reset()
	if err := webhookMailTemplates.text.ExecuteTemplate(&b, "text", d); err != nil {
		return fmt.Errorf("app: mail %s: %w", MailWebhookDeactivated, err)
	}
	text := b.String()
	b.Reset()
	if err := webhookMailTemplates.html.ExecuteTemplate(&b, "layout.html.tmpl", d); err != nil {
		return fmt.Errorf("app: mail %s: %w", MailWebhookDeactivated, err)
	}
	return s.queueRenderedMail(ctx, tx, MailWebhookDeactivated, to, d.Subject, text, b.String(), outboxOwner{})
}
