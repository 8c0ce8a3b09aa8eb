package sentences

import (
	"strings"
	"testing"
)

// TestRuleCategories covers the kinds of hard boundaries English text
// has (abbreviations that do or do not end a sentence, initials, numbered
// and lettered lists, ellipses, quotations, parentheses, addresses,
// numbers, missing spaces), each with cases written for this project.
func TestRuleCategories(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"stops", "The sun rose. Birds sang.", []string{"The sun rose.", "Birds sang."}},
		{"question", "Where is the key? It is here.", []string{"Where is the key?", "It is here."}},
		{"exclamation", "Look out! The car stopped.", []string{"Look out!", "The car stopped."}},
		{"doubled marks", "Really?? Nobody came. Wow!! That hurt. What?! No way.", []string{"Really??", "Nobody came.", "Wow!!", "That hurt.", "What?!", "No way."}},
		{"middle initial", "The letter came from Maria K. Lopez today.", []string{"The letter came from Maria K. Lopez today."}},
		{"initials", "It was written by T. S. Eliot in London.", []string{"It was written by T. S. Eliot in London."}},
		{"page abbreviation", "The table is on p. 12 of the report.", []string{"The table is on p. 12 of the report."}},
		{"lower abbreviation inside", "Did Tom and co. come to the show?", []string{"Did Tom and co. come to the show?"}},
		{"company inside", "They signed with Hale, Dunn & Co. last week.", []string{"They signed with Hale, Dunn & Co. last week."}},
		{"lower abbreviation at the end", "Ask Tom and co. They were there.", []string{"Ask Tom and co.", "They were there."}},
		{"company at the end", "They signed with Hale, Dunn & Co. It took a year.", []string{"They signed with Hale, Dunn & Co.", "It took a year."}},
		{"title before a name", "We could see Mt. Rainier from the hotel.", []string{"We could see Mt. Rainier from the hotel."}},
		{"saint and street", "St. Anne's school is on 3rd st. near the park.", []string{"St. Anne's school is on 3rd st. near the park."}},
		{"possessive abbreviation", "That is Ken Griffey Jr.'s glove.", []string{"That is Ken Griffey Jr.'s glove."}},
		{"dotted acronym inside", "She toured the U.K. last spring.", []string{"She toured the U.K. last spring."}},
		{"dotted acronym at the end", "Prices rose in the U.K. What comes next?", []string{"Prices rose in the U.K.", "What comes next?"}},
		{"U.S. at the end", "They moved to the U.S. The move was hard.", []string{"They moved to the U.S.", "The move was hard."}},
		{"U.S. before a name", "He served in the U.S. Navy for years.", []string{"He served in the U.S. Navy for years."}},
		{"U.S. before lower case", "She has worked in the U.S. since 2010.", []string{"She has worked in the U.S. since 2010."}},
		{"times", "At 7 a.m. Dr. Reed opened the lab. She closed it at 9 P.M. Dr. Reed then drove home.",
			[]string{"At 7 a.m. Dr. Reed opened the lab.", "She closed it at 9 P.M.", "Dr. Reed then drove home."}},
		// A quotation in the opening phrase is one of its words, not a
		// verb of the sentence.
		{"time after a quoted phrase", "On the \"day they all left\" at 8 a.m. Dr. Reed drove home. He said “we left” at 9 a.m. Dr. Reed agreed.",
			[]string{"On the \"day they all left\" at 8 a.m. Dr. Reed drove home.", "He said “we left” at 9 a.m.", "Dr. Reed agreed."}},
		{"money inside", "The ticket cost $12.50 at the door.", []string{"The ticket cost $12.50 at the door."}},
		{"money at the end", "The ticket cost $12.50. We paid cash.", []string{"The ticket cost $12.50.", "We paid cash."}},
		{"parenthesis", "She studied law (She had wanted to be a doctor.) at the state college.", []string{"She studied law (She had wanted to be a doctor.) at the state college."}},
		{"e-mail", "Write to ana.silva@example.org. She answers fast.", []string{"Write to ana.silva@example.org.", "She answers fast."}},
		{"web address", "Read it at https://docs.example.net/v2/guide.html. It is short.", []string{"Read it at https://docs.example.net/v2/guide.html.", "It is short."}},
		{"single quotes inside", "He looked up, 'That was close.' he said.", []string{"He looked up, 'That was close.' he said."}},
		{"double quotes inside", "He looked up, \"That was close.\" he said.", []string{"He looked up, \"That was close.\" he said."}},
		{"double quotes at the end", "He looked up, \"That was close.\" Then he ran.", []string{"He looked up, \"That was close.\"", "Then he ran."}},
		{"list with .) and no stops", "1.) Buy milk 2.) Feed the cat 3.) Call home", []string{"1.) Buy milk", "2.) Feed the cat", "3.) Call home"}},
		{"list with .) and stops", "1.) Buy milk. 2.) Feed the cat.", []string{"1.) Buy milk.", "2.) Feed the cat."}},
		{"list with ) and no stops", "1) Buy milk 2) Feed the cat", []string{"1) Buy milk", "2) Feed the cat"}},
		{"list with ) and stops", "1) Buy milk. 2) Feed the cat.", []string{"1) Buy milk.", "2) Feed the cat."}},
		{"list with . and no stops", "1. Buy milk 2. Feed the cat", []string{"1. Buy milk", "2. Feed the cat"}},
		{"list with . and stops", "1. Buy milk. 2. Feed the cat.", []string{"1. Buy milk.", "2. Feed the cat."}},
		{"bulleted numbers", "• 4. Buy milk • 5. Feed the cat", []string{"• 4. Buy milk", "• 5. Feed the cat"}},
		{"hyphen bullets", "⁃4. Buy milk ⁃5. Feed the cat", []string{"⁃4. Buy milk", "⁃5. Feed the cat"}},
		{"lettered list", "a. Buy milk b. Feed the cat c. Call home", []string{"a. Buy milk", "b. Feed the cat", "c. Call home"}},
		{"numbered heading", "3. Results", []string{"3. Results"}},
		{"number sign", "It is at No. 12 on the map. Look there.", []string{"It is at No. 12 on the map.", "Look there."}},
		{"brand with !", "He works at Yahoo! in sales.", []string{"He works at Yahoo! in sales."}},
		{"pronoun I and an initial", "It was just Sam and I. Have you met Henry I. Ford?", []string{"It was just Sam and I.", "Have you met Henry I. Ford?"}},
		{"ellipsis in a quotation", "She wrote that “the river will rise again. . . .”", []string{"She wrote that “the river will rise again. . . .”"}},
		{"bracketed ellipsis", "\"The plan [...] was never tested [...]\" (Lee 12).", []string{"\"The plan [...] was never tested [...]\" (Lee 12)."}},
		{"spaced ellipsis ending", "It trailed off at the end . . . . Then a new line began.", []string{"It trailed off at the end . . . .", "Then a new line began."}},
		{"four dots", "I never said that.... He walked out.", []string{"I never said that....", "He walked out."}},
		{"ellipsis inside", "I was just ... well, you know . . . I mean it.", []string{"I was just ... well, you know . . . I mean it."}},
		{"numeric date with spaces", "Von Anna Berg 4. 2. 2022. Das Team steht fest.", []string{"Von Anna Berg 4. 2. 2022.", "Das Team steht fest."}},
		{"numeric date without spaces", "Stand: 04.02.2022. Die Liste gilt bis Mai.", []string{"Stand: 04.02.2022.", "Die Liste gilt bis Mai."}},
		{"day before a month and year", "Das Spiel ist am 15. Februar 2022 in Ulm. Karten gibt es vor Ort.", []string{"Das Spiel ist am 15. Februar 2022 in Ulm.", "Karten gibt es vor Ort."}},
		{"German ordinal", "Er spielt zum 3. Mal für das Team. Der 2. Satz ging verloren.", []string{"Er spielt zum 3. Mal für das Team.", "Der 2. Satz ging verloren."}},
		{"number at a sentence end", "The team scored 4. Then it rained.", []string{"The team scored 4.", "Then it rained."}},
		{"name with an inner stop", "Die Akte der e.Consult AG ist neu. Sie läuft mit node.js und Web 2.0 gut.", []string{"Die Akte der e.Consult AG ist neu.", "Sie läuft mit node.js und Web 2.0 gut."}},
		{"military titles", "In 2013, Maj. Gen. Reed led the review. It ended in May.", []string{"In 2013, Maj. Gen. Reed led the review.", "It ended in May."}},
		{"no spaces", "It rained.Then it stopped.Mr. Lee counted 2,000.That was all.", []string{"It rained.", "Then it stopped.", "Mr. Lee counted 2,000.", "That was all."}},
	}
	for _, tt := range tests {
		got := Strings(tt.text)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: Strings(%q)\n got  %q\n want %q", tt.name, tt.text, got, tt.want)
		}
	}
}

// TestLowerCasedTokenised: lower-cased, tokenised text (`word , word .`,
// no capitals) still splits into sentences.
func TestLowerCasedTokenised(t *testing.T) {
	text := "-lrb- cnn -rrb- the storm hit the coast on monday , officials said . " +
		"more than 2,000 homes lost power , and roads were closed in three counties . " +
		"`` we have never seen anything like it , '' said one resident . " +
		"crews from the u.s. army corps of engineers arrived on tuesday . " +
		"they expect repairs to take weeks ... but nobody knows for sure !"
	want := []string{
		"-lrb- cnn -rrb- the storm hit the coast on monday , officials said .",
		"more than 2,000 homes lost power , and roads were closed in three counties .",
		"`` we have never seen anything like it , '' said one resident .",
		"crews from the u.s. army corps of engineers arrived on tuesday .",
		"they expect repairs to take weeks ... but nobody knows for sure !",
	}
	got := Strings(text)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// A short lower-case fragment gives no evidence of lower-casing.
	if got := Strings("the meeting starts at 5 a. m. sharp"); len(got) != 1 {
		t.Errorf("short lower-case text split: %q", got)
	}
}

// TestScriptsAndLanguages covers the rows of the rule table: the stops of
// other scripts, Thai and Lao sentences separated by spaces, and
// abbreviations, ordinals and numbers of other languages, each with cases
// written for this project.
func TestScriptsAndLanguages(t *testing.T) {
	// Sentences long enough for a space to end them (100 code points).
	thaiLong := strings.Repeat("วันนี้ฝนตกหนักมาก", 7)
	laoLong := strings.Repeat("ມື້ນີ້ຝົນຕົກໜັກຫຼາຍ", 7)
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"ideographic stops", "今天下雨。我们在家！你呢？", []string{"今天下雨。", "我们在家！", "你呢？"}},
		{"stop inside a title", "他读了《你好！世界》这本书。很好。", []string{"他读了《你好！世界》这本书。", "很好。"}},
		{"Devanagari danda", "आज बारिश हुई। हम घर पर रहे॥ फिर धूप निकली।", []string{"आज बारिश हुई।", "हम घर पर रहे॥", "फिर धूप निकली।"}},
		{"Arabic question mark", "هل وصلت الرسالة؟ نعم وصلت.", []string{"هل وصلت الرسالة؟", "نعم وصلت."}},
		{"Urdu full stop", "یہ کتاب نئی ہے۔ وہ پرانی ہے۔", []string{"یہ کتاب نئی ہے۔", "وہ پرانی ہے۔"}},
		{"Ethiopic stops without spaces", "ዛሬ ዝናብ ዘነበ።ነገ ፀሐይ ትወጣለች፧", []string{"ዛሬ ዝናብ ዘነበ።", "ነገ ፀሐይ ትወጣለች፧"}},
		{"Myanmar section sign", "ဒီနေ့ မိုးရွာတယ်။ မနက်ဖြန် နေသာမယ်။", []string{"ဒီနေ့ မိုးရွာတယ်။", "မနက်ဖြန် နေသာမယ်။"}},
		{"Myanmar little section is a comma", "ဒီနေ့ မိုးရွာတယ်၊ ဒါပေမဲ့ နေသာမယ်။", []string{"ဒီနေ့ မိုးရွာတယ်၊ ဒါပေမဲ့ နေသာမယ်။"}},
		{"Khmer khan", "ថ្ងៃនេះភ្លៀង។ ស្អែកថ្ងៃក្តៅ។", []string{"ថ្ងៃនេះភ្លៀង។", "ស្អែកថ្ងៃក្តៅ។"}},
		{"Armenian full stops", "Գիրքը սեղանին է։ Նա կարդում է: 3-րդ գլուխը կարճ է:", []string{"Գիրքը սեղանին է։", "Նա կարդում է:", "3-րդ գլուխը կարճ է:"}},
		{"Armenian point is a colon", "Նա ասաց. «Գնանք»։ Մենք գնացինք։", []string{"Նա ասաց. «Գնանք»։", "Մենք գնացինք։"}},
		{"colon elsewhere", "Note: the time is 10:30. It is late.", []string{"Note: the time is 10:30.", "It is late."}},
		{"Greek question mark", "Πού είναι το σπίτι; Είναι εδώ.", []string{"Πού είναι το σπίτι;", "Είναι εδώ."}},
		{"semicolon elsewhere", "It rained; We stayed in.", []string{"It rained; We stayed in."}},
		{"Thai spaces", thaiLong + " " + thaiLong, []string{thaiLong, thaiLong}},
		{"Thai clauses", "วันนี้ฝนตก พรุ่งนี้แดดออก", []string{"วันนี้ฝนตก พรุ่งนี้แดดออก"}},
		{"Thai beside numbers and Latin", "ราคา 20 บาทที่ Bangkok Mall", []string{"ราคา 20 บาทที่ Bangkok Mall"}},
		{"Lao spaces", laoLong + " " + laoLong, []string{laoLong, laoLong}},
		{"German spaced abbreviations", "Wir kaufen Obst, z. B. Äpfel u. Ä. im Laden. Dann gehen wir.", []string{"Wir kaufen Obst, z. B. Äpfel u. Ä. im Laden.", "Dann gehen wir."}},
		{"German titles", "Sie traf Dr. med. Weber und Dipl. Ing. Roth. Beide kamen.", []string{"Sie traf Dr. med. Weber und Dipl. Ing. Roth.", "Beide kamen."}},
		{"German street number", "Er wohnt in der Gartenstr. 12 in Kiel. Sie auch.", []string{"Er wohnt in der Gartenstr. 12 in Kiel.", "Sie auch."}},
		{"German usw.", "Wir brauchen Brot, Käse usw. Die Liste ist lang. Er nahm Brot, Käse usw. Jahrgang 1990.", []string{"Wir brauchen Brot, Käse usw.", "Die Liste ist lang.", "Er nahm Brot, Käse usw. Jahrgang 1990."}},
		{"German quotations", "„Komm her.“ Er kam. »Gut so!« »Ja.« Dann ging er.", []string{"„Komm her.“", "Er kam.", "»Gut so!«", "»Ja.«", "Dann ging er."}},
		{"quotation of two sentences", "Sie sagte: „Es regnet. Wir bleiben hier.“ Er nickte.", []string{"Sie sagte: „Es regnet. Wir bleiben hier.“", "Er nickte."}},
		{"French guillemets with spaces", "Il a dit : « Il pleut. » Puis il est parti.", []string{"Il a dit : « Il pleut. »", "Puis il est parti."}},
		{"Italian titles with an article", "Ho visto l'Avv. Rossi e il Dott. Bianchi. Poi sono uscito.", []string{"Ho visto l'Avv. Rossi e il Dott. Bianchi.", "Poi sono uscito."}},
		{"Danish saint", "Vi fejrede Skt. Hans ved stranden.", []string{"Vi fejrede Skt. Hans ved stranden."}},
		{"Spanish titles", "La Sra. Gómez habló con el Lic. Pérez. Todo bien.", []string{"La Sra. Gómez habló con el Lic. Pérez.", "Todo bien."}},
		{"Russian abbreviations", "Он живёт на ул. Ленина в г. Казань. Проф. Иванов читает лекцию.", []string{"Он живёт на ул. Ленина в г. Казань.", "Проф. Иванов читает лекцию."}},
		{"Russian year", "Дом построен в 1905 г. В 1920 г. его продали.", []string{"Дом построен в 1905 г.", "В 1920 г. его продали."}},
		{"Ukrainian one-letter abbreviations", "Місто стоїть на р. Десна, біля с. Вишеньки. Я був там.", []string{"Місто стоїть на р. Десна, біля с. Вишеньки.", "Я був там."}},
		{"Greek letter as a symbol", "The bound holds when |x − y| < δ. Then f is smooth. We take λ. The rest follows.", []string{"The bound holds when |x − y| < δ.", "Then f is smooth.", "We take λ.", "The rest follows."}},
		{"pronoun at the end", "Это был я. Потом пришла она.", []string{"Это был я.", "Потом пришла она."}},
		{"Russian flat number", "Кв. 12 на втором этаже.", []string{"Кв. 12 на втором этаже."}},
		{"speech after a dash", "Куда ты? — спросил он. Мы ушли.", []string{"Куда ты? — спросил он.", "Мы ушли."}},
		{"Kazakh spaced abbreviation", "Қалалар, ауылдар т. б. (тағы басқа) аталды.", []string{"Қалалар, ауылдар т. б. (тағы басқа) аталды."}},
		{"Slovak company", "Pracuje pre Alfa s. r. o., napr. v Nitre. Je spokojný.", []string{"Pracuje pre Alfa s. r. o., napr. v Nitre.", "Je spokojný."}},
		{"Greek title", "Ο Δρ. Νικολάου ήρθε. Έφυγε νωρίς.", []string{"Ο Δρ. Νικολάου ήρθε.", "Έφυγε νωρίς."}},
		{"Malayalam initials", "ഇത് ഡോ. എ. കെ. രാമൻ. അദ്ദേഹം വന്നു.", []string{"ഇത് ഡോ. എ. കെ. രാമൻ.", "അദ്ദേഹം വന്നു."}},
		{"German date and number still hold", "Am 12. Juni kamen 1.000.000 Besucher. Das war viel.", []string{"Am 12. Juni kamen 1.000.000 Besucher.", "Das war viel."}},
	}
	for _, tt := range tests {
		got := Strings(tt.text)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: Strings(%q)\n got  %q\n want %q", tt.name, tt.text, got, tt.want)
		}
	}
}

// TestRuleTable: every row names its rule and languages, and an
// abbreviation row's words are lower-cased without a final stop.
func TestRuleTable(t *testing.T) {
	for _, r := range rules {
		if r.name == "" || r.langs == "" || r.kind == 0 {
			t.Errorf("row %+v: want a name, languages and a kind", r)
		}
		for _, w := range strings.Fields(r.words) {
			if w != strings.ToLower(w) || strings.HasSuffix(w, ".") {
				t.Errorf("row %q: word %q must be lower-cased without a final stop", r.name, w)
			}
		}
	}
}
