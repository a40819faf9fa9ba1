package assembly

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
)

// gitRepo makes a real repository in a temporary directory with one commit
// of files, and returns its root.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(t.TempDir(), "none"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	root := t.TempDir()
	writeTree(t, root, files)
	git(t, root, "init", "-q")
	git(t, root, "checkout", "-q", "-b", "main")
	git(t, root, "add", ".")
	git(t, root, "commit", "-q", "-m", "first")
	return root
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestReadGit(t *testing.T) {
	root := gitRepo(t, map[string]string{
		"Acme/Tasks/Проект.yaml": demoDescriptor,
		"Acme/Other/Проект.yaml": "Имя: Other\nПоставщик: Acme\n",
	})
	dir := filepath.Join(root, "Acme", "Tasks")
	ctx := context.Background()
	head := git(t, root, "rev-parse", "HEAD")

	info := ReadGit(ctx, dir, noEnv)
	if info.Commit != head || info.Branch != "main" || info.Dirty == nil || *info.Dirty || len(info.DirtyFiles) != 0 {
		t.Fatalf("clean: %+v", info)
	}

	writeTree(t, root, map[string]string{
		"Acme/Tasks/Новый файл.xbsl": "x",       // untracked, non-ASCII, with a space
		"Acme/Tasks/Проект.yaml":     "changed", // modified
		"Acme/Other/Проект.yaml":     "changed", // outside the project: not counted
	})
	info = ReadGit(ctx, dir, noEnv)
	if info.Dirty == nil || !*info.Dirty {
		t.Fatalf("dirty: %+v", info)
	}
	want := []string{"Acme/Tasks/Проект.yaml", "Acme/Tasks/Новый файл.xbsl"}
	if !slices.Equal(info.DirtyFiles, want) {
		t.Errorf("dirty files %q, want %q", info.DirtyFiles, want)
	}

	git(t, root, "checkout", "-q", "--detach")
	env := envOf(map[string]string{"CI_COMMIT_BRANCH": "", "CI_COMMIT_REF_NAME": "HEAD", "GITHUB_REF_NAME": "release/2"})
	if info := ReadGit(ctx, dir, env); info.Branch != "release/2" || info.Commit != head {
		t.Errorf("detached HEAD with CI variables: %+v", info)
	}
	env = envOf(map[string]string{"CI_COMMIT_BRANCH": "feature", "GITHUB_REF_NAME": "other"})
	if info := ReadGit(ctx, dir, env); info.Branch != "feature" {
		t.Errorf("gitlab variable first: %+v", info)
	}
	if info := ReadGit(ctx, dir, noEnv); info.Branch != "" {
		t.Errorf("detached HEAD without CI: %q", info.Branch)
	}
}

func TestReadGitOutsideRepository(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	info := ReadGit(context.Background(), dir, noEnv)
	if info.Commit != "" || info.Branch != "" || info.Dirty != nil || info.DirtyFiles != nil {
		t.Errorf("not a repository: %+v", info)
	}
	t.Setenv("PATH", "")
	if info := ReadGit(context.Background(), dir, noEnv); info.Dirty != nil {
		t.Errorf("no git: %+v", info)
	}
}

func TestReadGitEmptyRepository(t *testing.T) {
	root := gitRepo(t, map[string]string{"a.txt": "x"})
	empty := filepath.Join(root, "sub")
	writeTree(t, empty, map[string]string{"b.txt": "y"})
	git(t, empty, "init", "-q")
	info := ReadGit(context.Background(), empty, noEnv)
	if info.Commit != "" || info.Dirty == nil || !*info.Dirty || !slices.Equal(info.DirtyFiles, []string{"b.txt"}) {
		t.Errorf("a repository without commits: %+v", info)
	}
}

func TestRequireClean(t *testing.T) {
	root := gitRepo(t, map[string]string{"Acme/Tasks/Проект.yaml": demoDescriptor, "Acme/Other/x.txt": "x"})
	dir := filepath.Join(root, "Acme", "Tasks")
	ctx := context.Background()
	if err := RequireClean(ctx, dir); err != nil {
		t.Fatalf("clean: %v", err)
	}
	writeTree(t, root, map[string]string{"Acme/Other/x.txt": "changed"})
	if err := RequireClean(ctx, dir); err != nil {
		t.Fatalf("changes elsewhere do not count: %v", err)
	}
	writeTree(t, root, map[string]string{"Acme/Tasks/a.xbsl": "new", "Acme/Tasks/Проект.yaml": "changed"})
	err := RequireClean(ctx, dir)
	if errKey(err) != "build.require-clean-dirty" {
		t.Fatalf("dirty: %v", err)
	}
	inLang(t, i18n.EN, func(ctx context.Context) {
		err := RequireClean(ctx, dir)
		if want := "--require-clean: " + dir + " has uncommitted changes (2) – the operation is cancelled"; err.Error() != want {
			t.Errorf("got %q", err)
		}
	})

	outside := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(outside))
	err = RequireClean(ctx, outside)
	if errKey(err) != "build.require-clean-no-git" {
		t.Fatalf("outside a repository: %v", err)
	}
	inLang(t, i18n.EN, func(ctx context.Context) {
		err = RequireClean(ctx, outside)
		if want := "--require-clean: git is unavailable or " + outside + " is not inside a repository – "; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("got %q", err)
		}
	})
}

func TestPorcelainPaths(t *testing.T) {
	out := " M plain.txt\n?? \"with space.txt\"\nR  \"old name.txt\" -> new.txt\nA  \"caf\\303\\251 \\\"q\\\".txt\"\n\n"
	want := []string{"plain.txt", "with space.txt", "old name.txt -> new.txt", "café \"q\".txt"}
	if got := porcelainPaths(out); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := porcelainPaths(""); got == nil || len(got) != 0 {
		t.Errorf("empty output: %#v", got)
	}
}

// Run from a git hook, which points GIT_DIR (and GIT_WORK_TREE) at the
// hook's repository, git still reads the repository holding the project
// directory, from the project directory down.
func TestGitIgnoresAHooksRepository(t *testing.T) {
	root := gitRepo(t, map[string]string{"Acme/Tasks/Проект.yaml": demoDescriptor})
	other := gitRepo(t, map[string]string{"README": "another repository"})
	head := git(t, root, "rev-parse", "HEAD")
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)
	dir := filepath.Join(root, "Acme", "Tasks")
	out, err := Git(context.Background(), dir, nil, "ls-tree", "--name-only", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "Проект.yaml" && got != `"\320\237\321\200\320\276\320\265\320\272\321\202.yaml"` {
		t.Errorf("ls-tree in the project directory lists %q, want its own Проект.yaml", got)
	}
	if info := ReadGit(context.Background(), dir, noEnv); info.Commit != head {
		t.Errorf("the commit read is %q, not the project's repository's", info.Commit)
	}
}
