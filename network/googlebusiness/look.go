package googlebusiness

import "github.com/crier/crier/app"

// brand is how the dashboard draws Google Business: its mark.
var brand = app.Brand{
	Color: "#1a73e8",
	Icon: `<path d="M8 13.5 9.6 8h12.8l1.6 5.5" fill="none" stroke="#fff" stroke-width="1.8" stroke-linejoin="round"></path>` +
		` <path d="M8 13.5a2.67 2.67 0 0 0 5.33 0 2.67 2.67 0 0 0 5.34 0 2.67 2.67 0 0 0 5.33 0z" fill="#fff"></path>` +
		` <path d="M9.5 16.5V24h13v-7.5" fill="none" stroke="#fff" stroke-width="1.8" stroke-linejoin="round"></path>` +
		` <path d="M17.4 20.3h3v.5a1.9 1.9 0 1 1-.6-1.4" fill="none" stroke="#fff" stroke-width="1.2" stroke-linecap="round"></path>`,
	Monogram: "GB",
}

// compose is Google Business's tab in the composer: every field of its payload, in the payload's order.
var compose = app.Compose{
	Fields: []app.FormField{
		{Key: "topicType", Label: "Post type", Kind: app.KindSelect, Options: []app.FieldOption{{Value: "STANDARD", Label: "Update"}, {Value: "EVENT", Label: "Event"}, {Value: "OFFER", Label: "Offer"}, {Value: "ALERT", Label: "Alert"}}},
		{Key: "text", Label: "Text", Kind: app.KindTextarea, Hint: app.SharedTextHint},
		{Key: "languageCode", Label: "Language", Kind: app.KindText, Hint: "A language code such as en."},
		{Key: "callToActionType", Label: "Button", Kind: app.KindSelect, Options: []app.FieldOption{{Value: "BOOK", Label: "Book"}, {Value: "ORDER", Label: "Order online"}, {Value: "SHOP", Label: "Buy"}, {Value: "LEARN_MORE", Label: "Learn more"}, {Value: "SIGN_UP", Label: "Sign up"}, {Value: "CALL", Label: "Call now"}}, DefaultLabel: "No button", Group: "Call to action"},
		{Key: "callToActionUrl", Label: "Button link", Kind: app.KindURL, Group: "Call to action"},
		{Key: "eventTitle", Label: "Event title", Kind: app.KindText, Group: "Event"},
		{Key: "eventStartDate", Label: "Starts", Kind: app.KindDateTime, Group: "Event"},
		{Key: "eventEndDate", Label: "Ends", Kind: app.KindDateTime, Group: "Event"},
		{Key: "offerCouponCode", Label: "Coupon code", Kind: app.KindText, Group: "Offer"},
		{Key: "offerRedeemOnlineUrl", Label: "Redeem online at", Kind: app.KindURL, Group: "Offer"},
		{Key: "offerTermsConditions", Label: "Terms and conditions", Kind: app.KindTextarea, Group: "Offer"},
		{Key: "alertType", Label: "Alert type", Kind: app.KindSelect, Options: []app.FieldOption{{Value: "COVID_19", Label: "COVID-19"}}, DefaultLabel: "None", Group: "Alert"},
	},
	Preview: "feed",
	Actions: []app.PreviewAction{{Label: "Learn more", Icon: "external"}, {Label: "Share", Icon: "share"}},
}
