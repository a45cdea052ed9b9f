package googlebusiness

import "github.com/crier/crier/app"

// Payload is data.GOOGLE_BUSINESS.
type Payload struct {
	Text                 string   `json:"text,omitempty"`
	UploadIDs            []string `json:"uploadIds,omitempty"`
	TopicType            string   `json:"topicType,omitempty"` // STANDARD (default) | EVENT | OFFER | ALERT
	LanguageCode         string   `json:"languageCode,omitempty"`
	CallToActionType     string   `json:"callToActionType,omitempty"`
	CallToActionURL      string   `json:"callToActionUrl,omitempty"`
	EventTitle           string   `json:"eventTitle,omitempty"`
	EventStartDate       string   `json:"eventStartDate,omitempty"`
	EventEndDate         string   `json:"eventEndDate,omitempty"`
	OfferCouponCode      string   `json:"offerCouponCode,omitempty"`
	OfferRedeemOnlineURL string   `json:"offerRedeemOnlineUrl,omitempty"`
	OfferTermsConditions string   `json:"offerTermsConditions,omitempty"`
	AlertType            string   `json:"alertType,omitempty"` // COVID_19
}

// Of answers the Google Business payload of d (nil when Google Business is not a target).
func Of(d *app.PostData) *Payload { p, _ := d.Of(app.GoogleBusiness).(*Payload); return p }

func (p *Payload) Body() string      { return p.Text }
func (p *Payload) Uploads() []string { return p.UploadIDs }

// SetDefaults: a standard post; an alert is about COVID-19.
func (p *Payload) SetDefaults() {
	if p.TopicType == "" {
		p.TopicType = "STANDARD"
	}
	if p.TopicType == "ALERT" && p.AlertType == "" {
		p.AlertType = "COVID_19"
	}
}
