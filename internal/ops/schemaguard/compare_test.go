package schemaguard

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
)

const (
	catalogID = "2a6d9e14-7b3c-4d58-a0f2-3e1c5b7d9a02"
	descrID   = "3b7e0f25-8c4d-4e69-b103-4f2d6c8e0b03"
	termID    = "4c8f1036-9d5e-4f7a-8214-5a3e7d9f1c04"
	doneID    = "5d902147-ae6f-4a8b-9325-6b4f8e0a2d05"
)

// catalogRU is the demo's catalog with its three attributes; fields are
// the attribute blocks after "Реквизиты:".
func catalogRU(fields string) string {
	return "ВидЭлемента: Справочник\nИд: " + catalogID + "\nИмя: Задача\nОбластьВидимости: Глобально\nРеквизиты:\n" + fields
}

func catalogEN(fields string) string {
	return "ElementKind: Catalog\nId: " + catalogID + "\nName: Задача\nVisibilityScope: Global\nAttributes:\n" + fields
}

func field(id, name, typ, extra string) string {
	s := "    -\n"
	if id != "" {
		s += "        Ид: " + id + "\n"
	}
	s += "        Имя: " + name + "\n        Тип: " + typ + "\n"
	for _, l := range strings.Split(extra, "\n") {
		if l != "" {
			s += "        " + l + "\n"
		}
	}
	return s
}

func fieldEN(id, name, typ, extra string) string {
	s := "    -\n"
	if id != "" {
		s += "        Id: " + id + "\n"
	}
	s += "        Name: " + name + "\n        Type: " + typ + "\n"
	for _, l := range strings.Split(extra, "\n") {
		if l != "" {
			s += "        " + l + "\n"
		}
	}
	return s
}

var threeFields = field(descrID, "Описание", "Строка", "Длина: 200") + field(termID, "Срок", "Дата", "") + field(doneID, "Выполнена", "Булево", "")

// register is an information register with dimensions and resources.
func register(dims, res string) string {
	return "ВидЭлемента: РегистрСведений\nИд: 9f9f0000-0000-4000-8000-000000000001\nИмя: Курсы\nИзмерения:\n" + dims + "Ресурсы:\n" + res
}

// document has a tabular part Товары with two attributes.
func document(parts string) string {
	return "ВидЭлемента: Документ\nИд: 9f9f0000-0000-4000-8000-000000000002\nИмя: Заказ\nРеквизиты:\n" +
		field("", "Номер", "Строка", "Длина: 20") + "ТабличныеЧасти:\n" + parts
}

func tabular(id, name string, fields string) string {
	s := "    -\n"
	if id != "" {
		s += "        Ид: " + id + "\n"
	}
	s += "        Имя: " + name + "\n        Реквизиты:\n"
	for _, l := range strings.Split(strings.TrimRight(fields, "\n"), "\n") {
		s += "        " + l + "\n"
	}
	return s
}

var goods = tabular("aa000000-0000-4000-8000-000000000001", "Товары",
	field("aa000000-0000-4000-8000-000000000002", "Товар", "Строка", "Длина: 100")+
		field("aa000000-0000-4000-8000-000000000003", "Количество", "Число", "Длина: 10"))

// short renders findings compactly: code file field[/part] old>new.
func short(fs []Finding) []string {
	out := []string{}
	for _, f := range fs {
		s := f.Code + " " + f.File
		if f.Field != "" {
			s += " " + f.Field
		}
		if f.Part != "" {
			s += "/" + f.Part
		}
		if f.Element != "" {
			s += " " + f.Element
		}
		if f.Old != "" || f.New != "" {
			s += " " + f.Old + ">" + f.New
		}
		out = append(out, s)
	}
	return out
}

const catalogPath = "Основное/Задача.yaml"

func TestCompare(t *testing.T) {
	cases := []struct {
		name          string
		old, cur      map[string]string
		changes, rems []string
	}{
		{name: "identical files", old: map[string]string{catalogPath: catalogRU(threeFields)},
			cur: map[string]string{catalogPath: catalogRU(threeFields)}},
		// A structured type written another way is the same type.
		{name: "a structured type reformatted is clean",
			old: map[string]string{catalogPath: catalogRU(field(descrID, "Поле", "\n            Тип: Массив\n            ТипЭлемента: Строка", ""))},
			cur: map[string]string{catalogPath: catalogRU(field(descrID, "Поле", "{ТипЭлемента: \"String\", Тип: Массив}  # the same", ""))}},
		{name: "a structured type changed is refused",
			old:     map[string]string{catalogPath: catalogRU(field(descrID, "Поле", "{Тип: Массив, ТипЭлемента: Строка}", ""))},
			cur:     map[string]string{catalogPath: catalogRU(field(descrID, "Поле", "{Тип: Массив, ТипЭлемента: Число}", ""))},
			changes: []string{"type-changed Основное/Задача.yaml Поле {Тип: Массив, ТипЭлемента: Строка}>{Тип: Массив, ТипЭлемента: Число}"}},
		// A reference follows the element it refers to by its Ид.
		{name: "a referenced element renamed keeps the reference's type",
			old: map[string]string{catalogPath: catalogRU(""), "Заказ.yaml": "ВидЭлемента: Документ\nИд: 9f9f0000-0000-4000-8000-000000000002\nИмя: Заказ\nРеквизиты:\n" + field(termID, "Задача", "Задача.Ссылка", "")},
			cur: map[string]string{"Основное/Дело.yaml": strings.Replace(catalogRU(""), "Имя: Задача", "Имя: Дело", 1), "Заказ.yaml": "ВидЭлемента: Документ\nИд: 9f9f0000-0000-4000-8000-000000000002\nИмя: Заказ\nРеквизиты:\n" + field(termID, "Задача", "Дело.Ref", "")}},
		{name: "a reference to another element is refused",
			old:     map[string]string{catalogPath: catalogRU(""), "Заказ.yaml": "ВидЭлемента: Документ\nИд: 9f9f0000-0000-4000-8000-000000000002\nИмя: Заказ\nРеквизиты:\n" + field(termID, "Задача", "Задача.Ссылка", "")},
			cur:     map[string]string{catalogPath: catalogRU(""), "Заказ.yaml": "ВидЭлемента: Документ\nИд: 9f9f0000-0000-4000-8000-000000000002\nИмя: Заказ\nРеквизиты:\n" + field(termID, "Задача", "Заказ.Ссылка", "")},
			changes: []string{"type-changed Заказ.yaml Задача Задача.Ссылка>Заказ.Ссылка"}},
		// The case of an Ид's letters carries no meaning.
		{name: "an Ид in capitals is the same element, moved or not, and so are its fields",
			old: map[string]string{catalogPath: catalogRU(threeFields)},
			cur: map[string]string{"Перенесено/Задача.yaml": strings.Replace(catalogRU(strings.Replace(threeFields, descrID, strings.ToUpper(descrID), 1)), catalogID, strings.ToUpper(catalogID), 1)}},
		// A field whose length comes through a YAML merge key.
		{name: "a length set through a merge key is compared",
			old:     map[string]string{catalogPath: "Шаблон: &s {Тип: Строка, Длина: 200}\n" + catalogRU("    - {Ид: "+descrID+", Имя: Описание, <<: *s}\n")},
			cur:     map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "Строка", "Длина: 20"))},
			changes: []string{"length-shrunk Основное/Задача.yaml Описание 200>20"}},
		{name: "ru keys: an attribute added is clean",
			old: map[string]string{catalogPath: catalogRU(threeFields)},
			cur: map[string]string{catalogPath: catalogRU(threeFields + field("", "Автор", "Строка", "Длина: 50"))}},
		{name: "ru keys: Длина shrinks",
			old:     map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "Строка", "Длина: 200"))},
			cur:     map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "Строка", "Длина: 100"))},
			changes: []string{"length-shrunk Основное/Задача.yaml Описание 200>100"}},
		{name: "ru keys: Длина grows",
			old: map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "Строка", "Длина: 100"))},
			cur: map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "Строка", "Длина: 200"))}},
		{name: "ru keys: МаксимальнаяДлина shrinks",
			old:     map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "Строка", "МаксимальнаяДлина: 200"))},
			cur:     map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "Строка", "МаксимальнаяДлина: 150"))},
			changes: []string{"length-shrunk Основное/Задача.yaml Описание 200>150"}},
		{name: "en keys: Length shrinks",
			old:     map[string]string{catalogPath: catalogEN(fieldEN(descrID, "Description", "String", "Length: 200"))},
			cur:     map[string]string{catalogPath: catalogEN(fieldEN(descrID, "Description", "String", "Length: 20"))},
			changes: []string{"length-shrunk Основное/Задача.yaml Description 200>20"}},
		{name: "en keys: MaxLength shrinks",
			old:     map[string]string{catalogPath: catalogEN(fieldEN(descrID, "Description", "String", "MaxLength: 64"))},
			cur:     map[string]string{catalogPath: catalogEN(fieldEN(descrID, "Description", "String", "MaxLength: 32"))},
			changes: []string{"length-shrunk Основное/Задача.yaml Description 64>32"}},
		{name: "a length set only now is no shrink",
			old: map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "Строка", ""))},
			cur: map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "Строка", "Длина: 10"))}},
		{name: "ru keys: type changes",
			old:     map[string]string{catalogPath: catalogRU(field(termID, "Срок", "Дата", ""))},
			cur:     map[string]string{catalogPath: catalogRU(field(termID, "Срок", "Строка", "Длина: 10"))},
			changes: []string{"type-changed Основное/Задача.yaml Срок Дата>Строка"}},
		{name: "en keys: type changes",
			old:     map[string]string{catalogPath: catalogEN(fieldEN(termID, "Term", "Date", ""))},
			cur:     map[string]string{catalogPath: catalogEN(fieldEN(termID, "Term", "DateTime", ""))},
			changes: []string{"type-changed Основное/Задача.yaml Term Date>DateTime"}},
		{name: "primitive types compare bilingually",
			old: map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "Строка", "Длина: 200") +
				field(termID, "Срок", "ДатаВремя", "") + field(doneID, "Выполнена", "Булево", "") +
				field("", "Сумма", "Число", "") + field("", "Дата", "Дата", "") + field("", "Время", "Время", ""))},
			cur: map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "String", "Длина: 200") +
				field(termID, "Срок", "DateTime", "") + field(doneID, "Выполнена", "Boolean", "") +
				field("", "Сумма", "Number", "") + field("", "Дата", "Date", "") + field("", "Время", "Time", ""))}},
		{name: "a composite type in another order is the same type",
			old: map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "Строка|Число", ""))},
			cur: map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "Number | String", ""))}},
		{name: "a reference type changes",
			old:     map[string]string{catalogPath: catalogRU(field(descrID, "Исполнитель", "Сотрудник.Ссылка", ""))},
			cur:     map[string]string{catalogPath: catalogRU(field(descrID, "Исполнитель", "Пользователь.Ссылка", ""))},
			changes: []string{"type-changed Основное/Задача.yaml Исполнитель Сотрудник.Ссылка>Пользователь.Ссылка"}},
		{name: "translation ru→en: same types and lengths are clean",
			old: map[string]string{catalogPath: catalogRU(threeFields)},
			cur: map[string]string{catalogPath: catalogEN(fieldEN(descrID, "Description", "String", "Length: 200") +
				fieldEN(termID, "Term", "Date", "") + fieldEN(doneID, "Done", "Boolean", ""))}},
		{name: "translation ru→en: a shrink and a type change by Ид",
			old: map[string]string{catalogPath: catalogRU(threeFields)},
			cur: map[string]string{catalogPath: catalogEN(fieldEN(descrID, "Description", "String", "Length: 100") +
				fieldEN(termID, "Term", "String", "") + fieldEN(doneID, "Done", "Boolean", ""))},
			changes: []string{"length-shrunk Основное/Задача.yaml Description 200>100", "type-changed Основное/Задача.yaml Term Дата>String"}},
		{name: "translation en→ru: an attribute with Ид removed warns, one without Ид does not count",
			old: map[string]string{catalogPath: catalogEN(fieldEN(descrID, "Description", "String", "Length: 200") +
				fieldEN(termID, "Term", "Date", "") + fieldEN("", "Note", "String", ""))},
			cur:  map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "Строка", "Длина: 200"))},
			rems: []string{"attribute-removed Основное/Задача.yaml Term"}},
		{name: "translation: the length key translates too (МаксимальнаяДлина→MaxLength)",
			old:     map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "Строка", "МаксимальнаяДлина: 80"))},
			cur:     map[string]string{catalogPath: catalogEN(fieldEN(descrID, "Description", "String", "MaxLength: 40"))},
			changes: []string{"length-shrunk Основное/Задача.yaml Description 80>40"}},
		{name: "an attribute renamed with the same Ид is no removal",
			old: map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "Строка", "Длина: 200"))},
			cur: map[string]string{catalogPath: catalogRU(field(descrID, "Текст", "Строка", "Длина: 200"))}},
		{name: "removed attributes warn, by Ид and by name",
			old:  map[string]string{catalogPath: catalogRU(threeFields + field("", "Автор", "Строка", ""))},
			cur:  map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "Строка", "Длина: 200"))},
			rems: []string{"attribute-removed Основное/Задача.yaml Срок", "attribute-removed Основное/Задача.yaml Выполнена", "attribute-removed Основное/Задача.yaml Автор"}},
		{name: "explicit [] removes every attribute",
			old: map[string]string{catalogPath: catalogRU(threeFields)},
			cur: map[string]string{catalogPath: strings.Replace(catalogRU(""), "Реквизиты:\n", "Реквизиты: []\n", 1)},
			rems: []string{"attribute-removed Основное/Задача.yaml Описание", "attribute-removed Основное/Задача.yaml Срок",
				"attribute-removed Основное/Задача.yaml Выполнена"}},
		{name: "an inline block is unreadable and ignored (new side)",
			old: map[string]string{catalogPath: catalogRU(threeFields)},
			cur: map[string]string{catalogPath: strings.Replace(catalogRU(""), "Реквизиты:\n", "Реквизиты: [Описание, Срок]\n", 1)}},
		{name: "an inline block is unreadable and ignored (old side)",
			old: map[string]string{catalogPath: strings.Replace(catalogRU(""), "Реквизиты:\n", "Реквизиты: [Описание, Срок]\n", 1)},
			cur: map[string]string{catalogPath: catalogRU(field(descrID, "Описание", "Строка", ""))}},
		{name: "a file YAML cannot read is left out",
			old: map[string]string{catalogPath: catalogRU(threeFields)},
			cur: map[string]string{catalogPath: catalogRU(threeFields) + "Реквизиты: [\n"}},
		{name: "a removed dimension refuses, a removed resource warns",
			old: map[string]string{"Курсы.yaml": register(field("", "Валюта", "Строка", "Длина: 3")+field("", "Дата", "Дата", ""),
				field("", "Курс", "Число", "Длина: 15")+field("", "Кратность", "Число", ""))},
			cur:     map[string]string{"Курсы.yaml": register(field("", "Валюта", "Строка", "Длина: 3"), field("", "Курс", "Число", "Длина: 15"))},
			changes: []string{"dimension-removed Курсы.yaml Дата"},
			rems:    []string{"resource-removed Курсы.yaml Кратность"}},
		{name: "a dimension's type change and a resource's shrink refuse",
			old:     map[string]string{"Курсы.yaml": register(field("", "Валюта", "Строка", "Длина: 3"), field("", "Курс", "Число", "Длина: 15"))},
			cur:     map[string]string{"Курсы.yaml": register(field("", "Валюта", "Число", ""), field("", "Курс", "Число", "Длина: 10"))},
			changes: []string{"type-changed Курсы.yaml Валюта Строка>Число", "length-shrunk Курсы.yaml Курс 15>10"}},
		{name: "a removed tabular part and a removed attribute of a remaining one warn",
			old: map[string]string{"Заказ.yaml": document(goods + tabular("", "Услуги", field("", "Услуга", "Строка", "")))},
			cur: map[string]string{"Заказ.yaml": document(tabular("aa000000-0000-4000-8000-000000000001", "Товары",
				field("aa000000-0000-4000-8000-000000000002", "Товар", "Строка", "Длина: 100")))},
			rems: []string{"tabular-part-removed Заказ.yaml Услуги", "tabular-attribute-removed Заказ.yaml Количество/Товары"}},
		{name: "a tabular attribute's shrink refuses",
			old:     map[string]string{"Заказ.yaml": document(goods)},
			cur:     map[string]string{"Заказ.yaml": document(strings.Replace(goods, "Длина: 100", "Длина: 50", 1))},
			changes: []string{"length-shrunk Заказ.yaml Товар/Товары 100>50"}},
		{name: "a file reused with a different Ид refuses, naming the former Ид",
			old:     map[string]string{catalogPath: catalogRU(threeFields)},
			cur:     map[string]string{catalogPath: strings.Replace(catalogRU(threeFields), catalogID, "0b0b0b0b-0000-4000-8000-000000000000", 1)},
			changes: []string{"element-replaced Основное/Задача.yaml Задача " + catalogID + ">0b0b0b0b-0000-4000-8000-000000000000"}},
		{name: "a moved and renamed file with the same Ид is compared at its new place",
			old:     map[string]string{catalogPath: catalogRU(threeFields)},
			cur:     map[string]string{"Задачи/Поручение.yaml": catalogRU(strings.Replace(threeFields, "Длина: 200", "Длина: 20", 1))},
			changes: []string{"length-shrunk Задачи/Поручение.yaml Описание 200>20"}},
		{name: "a moved file unchanged is clean",
			old: map[string]string{catalogPath: catalogRU(threeFields)},
			cur: map[string]string{"Задачи/Задача.yaml": catalogRU(threeFields)}},
		{name: "two files swapping places are followed by Ид",
			old: map[string]string{"А.yaml": catalogRU(threeFields),
				"Б.yaml": strings.Replace(catalogRU(threeFields), catalogID, "0b0b0b0b-0000-4000-8000-000000000000", 1)},
			cur: map[string]string{"Б.yaml": catalogRU(threeFields),
				"А.yaml": strings.Replace(catalogRU(threeFields), catalogID, "0b0b0b0b-0000-4000-8000-000000000000", 1)}},
		{name: "an element without Ид is never taken for removed",
			old: map[string]string{catalogPath: strings.Replace(catalogRU(threeFields), "Ид: "+catalogID+"\n", "", 1)}},
		{name: "a removed element that holds no data is clean",
			old: map[string]string{"Модуль.yaml": "ВидЭлемента: ОбщийМодуль\nИд: 0c0c0c0c-0000-4000-8000-000000000000\nИмя: Модуль\n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Compare(bytesOf(c.old), bytesOf(c.cur))
			if got := short(r.Changes); !slices.Equal(got, nonNil(c.changes)) {
				t.Errorf("changes\n got %q\nwant %q", got, c.changes)
			}
			if got := short(r.Removals); !slices.Equal(got, nonNil(c.rems)) {
				t.Errorf("removals\n got %q\nwant %q", got, c.rems)
			}
		})
	}
}

// TestRemovedDataHoldingElementByKind: every kind that holds data, in
// both spellings, refuses when its file is gone and its Ид is nowhere.
func TestRemovedDataHoldingElementByKind(t *testing.T) {
	kinds := []string{"Справочник", "Catalog", "Документ", "Document", "РегистрСведений", "InformationRegister",
		"РегистрНакопления", "AccumulationRegister", "НаборКонстант", "ConstantsSet", "ПланОбмена", "ExchangePlan",
		"ХранилищеНастроек", "SettingsStorage"}
	for i, kind := range kinds {
		id := fmt.Sprintf("0d0d0d0d-0000-4000-8000-%012d", i)
		old := map[string]string{"Э.yaml": "ВидЭлемента: " + kind + "\nИд: " + id + "\nИмя: Э\n", "Проект.yaml": "Имя: P\n"}
		r := Compare(bytesOf(old), bytesOf(map[string]string{"Проект.yaml": "Имя: P\n"}))
		want := []string{"element-removed Э.yaml Э " + id + ">"}
		if got := short(r.Changes); !slices.Equal(got, want) || len(r.Removals) != 0 {
			t.Errorf("%s: changes %q, removals %q", kind, got, short(r.Removals))
		}
		// The same element moved elsewhere is no removal.
		r = Compare(bytesOf(old), bytesOf(map[string]string{"Проект.yaml": "Имя: P\n", "Новое/Э.yaml": old["Э.yaml"]}))
		if len(r.Changes)+len(r.Removals) != 0 {
			t.Errorf("%s moved: %q %q", kind, short(r.Changes), short(r.Removals))
		}
	}
	for _, kind := range []string{"Перечисление", "ОбщийМодуль", "КомпонентИнтерфейса", "Структура"} {
		r := Compare(bytesOf(map[string]string{"Э.yaml": "ВидЭлемента: " + kind + "\nИд: 0e0e0e0e-0000-4000-8000-000000000000\n"}), nil)
		if len(r.Changes) != 0 {
			t.Errorf("%s holds no data: %q", kind, short(r.Changes))
		}
	}
}

func TestFindingTexts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fs := []Finding{
		{Code: LengthShrunk, File: "a.yaml", Block: BlockAttribute, Field: "Описание", Old: "200", New: "100"},
		{Code: TypeChanged, File: "a.yaml", Block: BlockTabularAttribute, Field: "Товар", Part: "Товары", Old: "Строка", New: "Число"},
		{Code: DimensionRemoved, File: "r.yaml", Field: "Дата"},
		{Code: ElementRemoved, File: "a.yaml", Element: "Задача", Kind: "Справочник", Old: catalogID},
		{Code: ElementReplaced, File: "a.yaml", Element: "Задача", Kind: "Справочник", Old: catalogID, New: "x"},
		{Code: AttributeRemoved, File: "a.yaml", Field: "Срок"},
		{Code: TabularAttributeRemoved, File: "a.yaml", Field: "Количество", Part: "Товары"},
	}
	ctx = i18n.WithLang(ctx, i18n.RU)
	ru := Lines(ctx, fs)
	wantRU := []string{
		"a.yaml: реквизит Описание – длина уменьшается с 200 до 100",
		"a.yaml: реквизит Товар табличной части Товары – тип меняется с Строка на Число",
		"r.yaml: измерение Дата удалено",
		"a.yaml: элемент Задача (Справочник, Ид " + catalogID + ") удалён вместе с данными",
		"a.yaml: файл теперь несёт Ид x вместо " + catalogID + " – элемент Задача (Справочник) с данными заменяется новым",
		"a.yaml: реквизит Срок удалён",
		"a.yaml: реквизит Количество табличной части Товары удалён",
	}
	if !slices.Equal(ru, wantRU) {
		t.Errorf("ru\n got %q\nwant %q", ru, wantRU)
	}
	ctx = i18n.WithLang(ctx, i18n.EN)
	en := Lines(ctx, fs)
	if en[0] != "a.yaml: attribute Описание – the length shrinks from 200 to 100" ||
		en[1] != "a.yaml: attribute Товар of tabular part Товары – the type changes from Строка to Число" ||
		en[4] != "a.yaml: the file now carries Ид x instead of "+catalogID+" – element Задача (Справочник) and its data are replaced by a new one" {
		t.Errorf("en %q", en)
	}
	for _, l := range append(ru, en...) {
		if strings.Contains(l, "{") {
			t.Errorf("an unfilled field: %s", l)
		}
	}
}

func bytesOf(m map[string]string) map[string][]byte {
	out := map[string][]byte{}
	for k, v := range m {
		out[k] = []byte(v)
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
