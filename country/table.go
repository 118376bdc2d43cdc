package country

// table lists every ISO 3166-1 alpha-2 code with the names the lists
// at hand use for it: the ISO short name first, then the spellings of the
// OFAC legacy files ("Korea, North", "Burma", "Bahamas, The"), of the UN
// consolidated list ("Iran (Islamic Republic of)", "Türkiye") and common
// variants. XK (Kosovo) is user-assigned but what every list uses.
//
// Territories the lists name by region are mapped to the country ISO files
// them under (Gaza and the West Bank to PS, Crimea to UA), because the code
// serves the citizenship filter, not a political statement.
const table = `AD Andorra
AE United Arab Emirates|UAE|U.A.E.
AF Afghanistan|Islamic Republic of Afghanistan
AG Antigua and Barbuda
AI Anguilla
AL Albania
AM Armenia
AO Angola
AQ Antarctica
AR Argentina
AS American Samoa
AT Austria
AU Australia
AW Aruba
AX Aland Islands
AZ Azerbaijan
BA Bosnia and Herzegovina|Bosnia-Herzegovina|Bosnia
BB Barbados
BD Bangladesh
BE Belgium
BF Burkina Faso
BG Bulgaria
BH Bahrain
BI Burundi
BJ Benin
BL Saint Barthelemy
BM Bermuda
BN Brunei|Brunei Darussalam
BO Bolivia|Bolivia (Plurinational State of)|Plurinational State of Bolivia
BQ Bonaire, Sint Eustatius and Saba|Caribbean Netherlands
BR Brazil
BS Bahamas|Bahamas, The|The Bahamas
BT Bhutan
BV Bouvet Island
BW Botswana
BY Belarus
BZ Belize
CA Canada
CC Cocos (Keeling) Islands|Cocos Islands
CD Democratic Republic of the Congo|Congo, Democratic Republic of the|Congo, The Democratic Republic of the|DRC|D.R.C.|Congo (Kinshasa)|Zaire
CF Central African Republic
CG Congo|Republic of the Congo|Congo, Republic of the|Congo (Brazzaville)
CH Switzerland
CI Cote d'Ivoire|Cote d Ivoire|Ivory Coast
CK Cook Islands
CL Chile
CM Cameroon
CN China|People's Republic of China
CO Colombia
CR Costa Rica
CU Cuba
CV Cabo Verde|Cape Verde|Cabo Verde. Previously Cape Verde.
CW Curacao
CX Christmas Island
CY Cyprus
CZ Czechia|Czech Republic
DE Germany|Federal Republic of Germany
DJ Djibouti
DK Denmark
DM Dominica
DO Dominican Republic
DZ Algeria
EC Ecuador
EE Estonia
EG Egypt
EH Western Sahara
ER Eritrea|Eritrean
ES Spain
ET Ethiopia
FI Finland
FJ Fiji
FK Falkland Islands|Falkland Islands (Malvinas)
FM Micronesia|Micronesia, Federated States of|Federated States of Micronesia
FO Faroe Islands
FR France
GA Gabon
GB United Kingdom|United Kingdom of Great Britain and Northern Ireland|UK|U.K.|Great Britain|Britain|England|Scotland|Wales|Northern Ireland
GD Grenada
GE Georgia
GF French Guiana
GG Guernsey
GH Ghana
GI Gibraltar
GL Greenland
GM Gambia|The Gambia|Gambia, The
GN Guinea
GP Guadeloupe
GQ Equatorial Guinea
GR Greece
GS South Georgia and the South Sandwich Islands
GT Guatemala
GU Guam
GW Guinea-Bissau
GY Guyana
HK Hong Kong|China, Hong Kong Special Administrative Region|Hong Kong SAR|Hong Kong Special Administrative Region
HM Heard Island and McDonald Islands
HN Honduras
HR Croatia
HT Haiti
HU Hungary
ID Indonesia
IE Ireland
IL Israel
IM Isle of Man|Man, Isle of
IN India
IO British Indian Ocean Territory
IQ Iraq
IR Iran|Iran (Islamic Republic of)|Islamic Republic of Iran|Iran, Islamic Republic of
IS Iceland
IT Italy
JE Jersey
JM Jamaica
JO Jordan
JP Japan
KE Kenya
KG Kyrgyzstan|Kyrgyz Republic
KH Cambodia
KI Kiribati
KM Comoros
KN Saint Kitts and Nevis|St. Kitts and Nevis|St. Kitts & Nevis
KP North Korea|Korea, North|Democratic People's Republic of Korea|Korea, Democratic People's Republic of|DPRK
KR South Korea|Korea, South|Republic of Korea|Korea, Republic of
KW Kuwait
KY Cayman Islands
KZ Kazakhstan
LA Laos|Lao People's Democratic Republic
LB Lebanon
LC Saint Lucia|St. Lucia
LI Liechtenstein
LK Sri Lanka
LR Liberia
LS Lesotho
LT Lithuania
LU Luxembourg
LV Latvia
LY Libya|Libyan Arab Jamahiriya
MA Morocco
MC Monaco
MD Moldova|Republic of Moldova|Moldova, Republic of
ME Montenegro
MF Saint Martin|Saint Martin (French part)
MG Madagascar
MH Marshall Islands
MK North Macedonia|North Macedonia, The Republic of|Macedonia|Macedonia, The Former Yugoslav Republic of|The former Yugoslav Republic of Macedonia
ML Mali
MM Myanmar|Burma
MN Mongolia
MO Macao|Macau|China, Macao Special Administrative Region
MP Northern Mariana Islands
MQ Martinique
MR Mauritania
MS Montserrat
MT Malta
MU Mauritius
MV Maldives
MW Malawi
MX Mexico
MY Malaysia
MZ Mozambique
NA Namibia
NC New Caledonia
NE Niger
NF Norfolk Island
NG Nigeria
NI Nicaragua
NL Netherlands|Holland|Kingdom of the Netherlands
NO Norway
NP Nepal
NR Nauru
NU Niue
NZ New Zealand
OM Oman
PA Panama
PE Peru
PF French Polynesia
PG Papua New Guinea
PH Philippines
PK Pakistan
PL Poland
PM Saint Pierre and Miquelon
PN Pitcairn
PR Puerto Rico
PS Palestine|State of Palestine|Palestinian|Palestinian Territories|Palestinian Territory|Occupied Palestinian Territory|Palestinian Authority|West Bank|Gaza|Gaza Strip|Region: Gaza|Region: North Gaza|Region: Northern Gaza|Region: West Bank
PT Portugal
PW Palau
PY Paraguay
QA Qatar
RE Reunion
RO Romania
RS Serbia|Republic of Serbia
RU Russia|Russian Federation|Region: Russia
RW Rwanda
SA Saudi Arabia
SB Solomon Islands
SC Seychelles
SD Sudan
SE Sweden
SG Singapore
SH Saint Helena
SI Slovenia
SJ Svalbard and Jan Mayen
SK Slovakia
SL Sierra Leone
SM San Marino
SN Senegal
SO Somalia
SR Suriname
SS South Sudan
ST Sao Tome and Principe
SV El Salvador
SX Sint Maarten
SY Syria|Syrian Arab Republic
SZ Eswatini|Swaziland
TC Turks and Caicos Islands
TD Chad
TF French Southern Territories
TG Togo
TH Thailand
TJ Tajikistan
TK Tokelau
TL Timor-Leste|East Timor
TM Turkmenistan
TN Tunisia
TO Tonga
TR Turkey|Turkiye|Republic of Turkiye
TT Trinidad and Tobago
TV Tuvalu
TW Taiwan
TZ Tanzania|United Republic of Tanzania|Tanzania, United Republic of
UA Ukraine|Crimea|Region: Crimea
UG Uganda
UM United States Minor Outlying Islands
US United States|United States of America|USA|U.S.A.|U.S.|US
UY Uruguay
UZ Uzbekistan
VA Holy See|Vatican|Vatican City
VC Saint Vincent and the Grenadines|St. Vincent and the Grenadines
VE Venezuela|Venezuela (Bolivarian Republic of)|Bolivarian Republic of Venezuela
VG British Virgin Islands|Virgin Islands, British|Virgin Islands (British)
VI United States Virgin Islands|Virgin Islands, U.S.|Virgin Islands (U.S.)
VN Vietnam|Viet Nam
VU Vanuatu
WF Wallis and Futuna
WS Samoa
XK Kosovo
YE Yemen
YT Mayotte
ZA South Africa
ZM Zambia
ZW Zimbabwe`
