package gen

import (
	"time"

	"github.com/amlscreen/amlscreen/record"
)

// seedIMO is the IMO number of the seed vessel; generated vessels never get
// it.
const seedIMO = "9116412"

func day(y int, m time.Month, d int) int64 {
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).UnixMilli()
}

// seedRecords open every generated dataset. The README and tests query
// them by name, so they are written by hand and their distinctive tokens
// (Putin, Acme, Ромашка, al-Zahrani, 华安达, Adrian, Brandtner) appear in no
// generated record.
var seedRecords = []*record.Record{
	{
		ID: "SEED0001", SourceID: "eu_fsf", SourceType: record.SourceSanction, EntityType: record.EntityIndividual,
		ListDate: day(2022, time.February, 25), Gender: record.GenderMale,
		Name:       "Vladimir Vladimirovich PUTIN",
		GivenNames: []string{"Vladimir"}, LastNames: []string{"Putin"},
		AliasGivenNames:  []string{"Wladimir"},
		AliasNames:       []string{"Владимир Владимирович Путин", "Wladimir Putin", "Vladimir Putin", "Poutine Vladimir Vladimirovitch"},
		DateOfBirth:      []string{"07/10/1952"},
		PlaceOfBirth:     []string{"Leningrad (now Saint Petersburg), Russian Federation"},
		Citizenship:      []string{"RU"},
		Positions:        []string{"President of the Russian Federation"},
		SanctionDetails:  []string{"Council Regulation (EU) No 269/2014 (Ukraine territorial integrity)", "Asset freeze"},
		OtherInformation: []string{"Responsible for actions which undermine or threaten the territorial integrity, sovereignty and independence of Ukraine"},
	},
	{
		ID: "SEED0002", SourceID: "us_ofac_sdn", SourceType: record.SourceSanction, EntityType: record.EntityEntity,
		ListDate:         day(2023, time.May, 19),
		Name:             "ACME HOLDINGS LLC",
		AliasNames:       []string{"Acme Holdings Limited Liability Company", "ACME HOLDINGS"},
		Jurisdiction:     []string{"US"},
		CompanyNumber:    []string{"5512384"},
		Address:          []string{"1209 Orange Street, Wilmington, DE 19801, United States"},
		SanctionDetails:  []string{"RUSSIA-EO14024"},
		OtherInformation: []string{"Organization Established Date 14/03/2017", "Additional Sanctions Information - Subject to Secondary Sanctions"},
	},
	{
		ID: "SEED0003", SourceID: "gb_hmt_sanctions", SourceType: record.SourceSanction, EntityType: record.EntityEntity,
		ListDate:        day(2022, time.September, 26),
		Name:            "ООО \"Ромашка\"",
		AliasNames:      []string{"Общество с ограниченной ответственностью \"Ромашка\"", "Romashka LLC", "OOO Romashka", "Romashka Limited Liability Company"},
		Jurisdiction:    []string{"RU"},
		CompanyNumber:   []string{"1027700132195"},
		Address:         []string{"ul. Tverskaya, d. 7, Moscow, 125009, Russian Federation"},
		SanctionDetails: []string{"UK Sanctions List: Russia", "Asset freeze"},
		OtherInformation: []string{"Tax ID No. 7707083893 (Russia)",
			"Operating in the defence and related materiel sector of the Russian Federation economy"},
	},
	{
		ID: "SEED0004", SourceID: "un_sc_sanctions", SourceType: record.SourceSanction, EntityType: record.EntityIndividual,
		ListDate: day(2015, time.September, 29), Gender: record.GenderMale,
		Name:            "عبد الرحمن بن خالد الزهراني",
		TLName:          "Abd al-Rahman bin Khalid al-Zahrani",
		GivenNames:      []string{"Abdul Rahman"},
		LastNames:       []string{"Al-Zahrani"},
		AliasNames:      []string{"Abdulrahman Khalid Al Zahrani", "Abu Khalid al-Zahrani", "Abd al-Rahman Khalid al-Zahrani"},
		DateOfBirth:     []string{"00/00/1975", "00/00/1976"},
		PlaceOfBirth:    []string{"Taif, Saudi Arabia"},
		Citizenship:     []string{"SA"},
		SanctionDetails: []string{"ISIL (Da'esh) and Al-Qaida Sanctions List"},
		OtherInformation: []string{"Passport K123456 (Saudi Arabia)", "Financier of ISIL (Da'esh) in Syria",
			"INTERPOL-UN Security Council Special Notice web link"},
	},
	{
		ID: "SEED0005", SourceID: "us_ofac_sdn", SourceType: record.SourceSanction, EntityType: record.EntityEntity,
		ListDate:        day(2024, time.October, 30),
		Name:            "深圳市华安达电子科技有限公司",
		TLName:          "Shen Zhen Shi Hua An Da Dian Zi Ke Ji You Xian Gong Si",
		AliasNames:      []string{"Shenzhen Huaanda Electronic Technology Co., Ltd.", "HUAANDA ELECTRONICS"},
		Jurisdiction:    []string{"CN"},
		CompanyNumber:   []string{"91440300MA5F1UQC7X"},
		Address:         []string{"Room 1805, Block A, Huaqiang Plaza, Futian District, Shenzhen, Guangdong, China"},
		SanctionDetails: []string{"RUSSIA-EO14024"},
		OtherInformation: []string{"Supplier of microelectronics to the defence sector of the Russian Federation",
			"Secondary sanctions risk: see Section 11 of Executive Order 14024"},
	},
	{
		ID: "SEED0006", SourceID: "us_ofac_sdn", SourceType: record.SourceSanction, EntityType: record.EntityVessel,
		ListDate:        day(2019, time.August, 30),
		Name:            "ADRIAN DARYA 1",
		AliasNames:      []string{"GRACE 1"},
		NameRemarks:     []string{"IMO " + seedIMO},
		SanctionDetails: []string{"SDGT", "IRAN"},
		OtherInformation: []string{"IMO " + seedIMO, "Vessel Type Crude Oil Tanker", "Vessel Flag Iran", "Former Vessel Flag Panama",
			"Linked To: ISLAMIC REVOLUTIONARY GUARD CORPS (IRGC)-QODS FORCE"},
	},
	{
		ID: "SEED0007", SourceID: "pep_de", SourceType: record.SourcePEP, PEPType: "POLITICIAN", PEPLevel: 2,
		EntityType: record.EntityIndividual, ListDate: day(2021, time.October, 26), Gender: record.GenderFemale,
		SourceCountry:    "DE",
		Name:             "Dr. Katharina Elisabeth Brandtner",
		GivenNames:       []string{"Katharina", "Elisabeth"},
		LastNames:        []string{"Brandtner"},
		AliasNames:       []string{"Katharina Brandtner"},
		DateOfBirth:      []string{"14/06/1971"},
		PlaceOfBirth:     []string{"Regensburg, Germany"},
		Citizenship:      []string{"DE"},
		Address:          []string{"Platz der Republik 1, 11011 Berlin, Germany"},
		Positions:        []string{"Member of the Bundestag", "Former: Member of the Landtag of Bavaria"},
		PoliticalParties: []string{"CSU"},
		Titles:           []string{"Dr."},
		Links:            []string{"https://www.bundestag.de/abgeordnete"},
	},
}
