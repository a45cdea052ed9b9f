// Package components holds the dashboard's reusable templ components: page header, card, buttons,
// empty state, flash message, form field, progress bar, status pill, icons and the logo; and what
// several pages share: Form (what was typed and each field's issue), Pager, the confirmation
// dialog with its page fallback (layout.ConfirmPage wraps it: layout imports this package).
//
// Components take plain values (strings, numbers, URLs) and never import the app: web turns domain
// records into these values.
package components

import "context"

type csrfKey struct{}

// WithCSRFToken returns a context carrying the request's CSRF token, for CSRFInput and the layout's
// hx-headers. web sets it on every dashboard request before rendering.
func WithCSRFToken(ctx context.Context, token string) context.Context {
	return context.WithValue(ctx, csrfKey{}, token)
}

// CSRFToken is the token set by WithCSRFToken, or "".
func CSRFToken(ctx context.Context) string {
	t, _ := ctx.Value(csrfKey{}).(string)
	return t
}
