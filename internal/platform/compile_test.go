package platform

import (
	"reflect"
	"testing"
)

func TestParseCompileErrors(t *testing.T) {
	messages := []string{
		"CreateApplication: Ошибка создания приложения: acme/crm/Основное/Форма.yaml [22:27]: <Сервер> Тип \"Х\" не виден\n" +
			"acme/crm/Основное/Модуль.xbsl [3:14]: Неизвестный идентификатор Ы\r\n" +
			"  acme/crm/Общее/Клиент.xbsl [105:1]: <Клиент>   метод недоступен на клиенте  \n" +
			"no position here: Contact administrator for details\n" +
			"acme/crm/Bad.xbsl [x:1]: not a number",
		"UpdateApplication: other/lib/Lib.xbsl [1:2]: чужая библиотека",
	}
	got := ParseCompileErrors(messages, "acme/crm/")
	want := []CompileError{
		{File: "Основное/Форма.yaml", Entry: "acme/crm/Основное/Форма.yaml", Line: 22, Column: 27, Environment: "Сервер", Message: "Тип \"Х\" не виден"},
		{File: "Основное/Модуль.xbsl", Entry: "acme/crm/Основное/Модуль.xbsl", Line: 3, Column: 14, Message: "Неизвестный идентификатор Ы"},
		{File: "Общее/Клиент.xbsl", Entry: "acme/crm/Общее/Клиент.xbsl", Line: 105, Column: 1, Environment: "Клиент", Message: "метод недоступен на клиенте"},
		{File: "other/lib/Lib.xbsl", Entry: "other/lib/Lib.xbsl", Line: 1, Column: 2, Message: "чужая библиотека"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	if js := got[0].JSON(); js.Keys()[0] != "file" || js.Keys()[5] != "message" {
		t.Errorf("item keys %v", js.Keys())
	}
	if len(ParseCompileErrors([]string{"Ошибка: Contact administrator for details"}, "")) != 0 {
		t.Error("a line without a position became an error")
	}
}

func TestHasCompileLine(t *testing.T) {
	if !HasCompileLine([]string{"x", "Ошибка обновления приложения: a/b/c.xbsl [1:1]: <Сервер> y"}) {
		t.Error("a located error was not seen")
	}
	if HasCompileLine([]string{"Ошибка обновления приложения: Contact administrator for details"}) {
		t.Error("an unlocated refusal counted as a compile error")
	}
}

func TestCompatibilityRefusal(t *testing.T) {
	messages := []string{
		"CreateApplication: Ошибка создания приложения: Неизвестный режим совместимости 9.9\n" +
			"acme/crm/Проект.yaml [11:1]: <Сервер> Значение свойства не поддерживается\n" +
			"acme/crm/Основное/А.yaml [1:1]: <Сервер> Элемент не загружен",
	}
	mode, lines, dropped, ok := CompatibilityRefusal(messages)
	if !ok || mode != "9.9" || dropped != 2 || len(lines) != 1 {
		t.Fatalf("mode %q lines %q dropped %d ok %v", mode, lines, dropped, ok)
	}
	mode, _, _, ok = CompatibilityRefusal([]string{"Unknown compatibility mode \"7.3\" in project"})
	if !ok || mode != "7.3" {
		t.Fatalf("english spelling: mode %q ok %v", mode, ok)
	}
	if _, _, _, ok := CompatibilityRefusal([]string{"a/b.xbsl [1:1]: нечто"}); ok {
		t.Error("an ordinary compile error read as a compatibility refusal")
	}
}
