package clientcache

import "github.com/elemctl/elemctl/internal/i18n"

// Messages are this package's entries of the message catalog, for
// i18n.Register.
var Messages = []i18n.Message{
	{Key: "clientcache.close-panicked",
		RU: "закрытие клиента стенда {stand} завершилось паникой: {panic}. Команды это не затронуло; его простаивающие соединения закроются при выходе",
		EN: "closing the client of the stand {stand} panicked: {panic}. No command is affected; its idle connections close at exit",
	},
}
