# devprojex installer for Windows (x86_64 and arm64). Mirrors installers/install.sh step by step.
#
#   powershell -ExecutionPolicy Bypass -c "irm https://github.com/devprojex/devprojex/releases/latest/download/install.ps1 | iex"
#   & ([scriptblock]::Create((irm .../install.ps1))) -Setup
#   -Setup runs `devprojex setup` (it asks before writing; without a console to ask on, it shows
#   its plan and writes nothing); -Setup -Yes applies the plan without asking.
#
# Downloads devprojex-<target>.zip and its .sha256, verifies the checksum, installs devprojex.exe
# to %USERPROFILE%\.local\bin (or DEVPROJEX_INSTALL_DIR) by renames (a running devprojex.exe is
# moved aside, not overwritten), and explains PATH. On any failure the installed version is kept
# and nothing is left behind.
#
# Environment: DEVPROJEX_INSTALL_DIR, DEVPROJEX_VERSION (default: latest),
#              DEVPROJEX_DOWNLOAD_BASE (base URL holding the archives and .sha256 files).

param(
    [switch]$Setup,
    [switch]$Yes,
    [string]$Version = $(if ($env:DEVPROJEX_VERSION) { $env:DEVPROJEX_VERSION } else { 'latest' }),
    [string]$InstallDir = $env:DEVPROJEX_INSTALL_DIR
)

$ErrorActionPreference = 'Stop'
$App = 'devprojex'
$Repo = 'devprojex/devprojex'

# Throw rather than exit: under `irm ... | iex` an exit would close the user's PowerShell window.
# Run as a file, an uncaught throw still ends with exit code 1. `finally` below cleans up.
function Fail([string]$Message) {
    throw "devprojex installer: error: $Message"
}

# ---- install directory ------------------------------------------------------------------------
if (-not $InstallDir) {
    if (-not $env:USERPROFILE) { Fail 'USERPROFILE is not set; pass -InstallDir DIR or set DEVPROJEX_INSTALL_DIR' }
    $InstallDir = Join-Path $env:USERPROFILE '.local\bin'
}

# ---- platform -> target triple ----------------------------------------------------------------
$arch = $env:PROCESSOR_ARCHITEW6432
if (-not $arch) { $arch = $env:PROCESSOR_ARCHITECTURE }
switch ($arch) {
    'AMD64' { $target = 'x86_64-pc-windows-msvc' }
    'ARM64' { $target = 'aarch64-pc-windows-msvc' }
    default { Fail "unsupported CPU architecture '$arch': devprojex publishes x86_64 and arm64 builds. Build from source with: cargo install --locked devprojex" }
}

# ---- where to download from -------------------------------------------------------------------
if ($env:DEVPROJEX_DOWNLOAD_BASE) {
    $base = $env:DEVPROJEX_DOWNLOAD_BASE.TrimEnd('/')
} elseif ($Version -eq 'latest') {
    $base = "https://github.com/$Repo/releases/latest/download"
} else {
    $base = "https://github.com/$Repo/releases/download/v$($Version.TrimStart('v'))"
}

$archive = "$App-$target.zip"
$tmp = Join-Path ([System.IO.Path]::GetTempPath()) ("devprojex-" + [System.Guid]::NewGuid().ToString('N'))
$staged = $null
New-Item -ItemType Directory -Path $tmp | Out-Null
try {
    # ---- download and verify --------------------------------------------------------------------
    [Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12
    $archivePath = Join-Path $tmp $archive
    Write-Host "Downloading $archive ..."
    try { Invoke-WebRequest -UseBasicParsing -Uri "$base/$archive" -OutFile $archivePath }
    catch { Fail "could not download $base/$archive" }
    try { Invoke-WebRequest -UseBasicParsing -Uri "$base/$archive.sha256" -OutFile "$archivePath.sha256" }
    catch { Fail "could not download $base/$archive.sha256 (needed to verify the archive)" }

    $expected = ((Get-Content -Raw "$archivePath.sha256").Trim() -split '\s+')[0].ToLowerInvariant()
    if ($expected -notmatch '^[0-9a-f]{64}$') { Fail "$archive.sha256 does not hold a sha256 digest; nothing was installed" }
    $actual = (Get-FileHash -Algorithm SHA256 -Path $archivePath).Hash.ToLowerInvariant()
    if ($expected -ne $actual) {
        Fail "checksum mismatch for ${archive}: expected $expected, got $actual. The download is corrupt or was tampered with; nothing was installed."
    }

    $extract = Join-Path $tmp 'extract'
    try { Expand-Archive -Path $archivePath -DestinationPath $extract }
    catch { Fail "could not extract $archive; nothing was installed" }
    $exe = Join-Path $extract "$App.exe"
    if (-not (Test-Path $exe)) { Fail "$archive does not contain $App.exe; nothing was installed" }
    & $exe --version *> $null
    if ($LASTEXITCODE -ne 0) { Fail "the $target build does not run on this machine; nothing was installed" }

    # ---- install: stage beside the destination, then rename into place ---------------------------
    # MCP clients keep devprojex.exe running, and Windows cannot overwrite or delete a running exe,
    # but it can rename one: the old exe is moved aside (devprojex.exe.old-<ticks>), the new one is
    # moved into its place, and on failure the old one is moved back, so a working exe is always
    # there. Copies moved aside earlier are removed once nothing runs them (self-update names its
    # copies the same way).
    New-Item -ItemType Directory -Force -Path $InstallDir | Out-Null
    $dest = Join-Path $InstallDir "$App.exe"
    $staged = Join-Path $InstallDir ".$App.install.$PID.exe"
    Copy-Item -Path $exe -Destination $staged
    $aside = $null
    if (Test-Path -LiteralPath $dest) {
        $aside = "$dest.old-$([DateTime]::UtcNow.Ticks)"
        try { Move-Item -LiteralPath $dest -Destination $aside }
        catch { Fail "could not move the installed $dest aside ($($_.Exception.Message)); nothing was changed" }
    }
    try {
        Move-Item -LiteralPath $staged -Destination $dest
    } catch {
        $why = $_.Exception.Message
        if ($aside) {
            try { Move-Item -LiteralPath $aside -Destination $dest }
            catch { Fail "could not move the new $App.exe into place ($why), nor the previous one back; the previous one is $aside: rename it to $dest" }
        }
        Fail "could not move the new $App.exe into place ($why); the installed version is unchanged"
    }
    $staged = $null
    $oldCopy = '^' + [regex]::Escape("$App.exe") + '\.old-\d+$'
    Get-ChildItem -LiteralPath $InstallDir -Force -ErrorAction SilentlyContinue |
        Where-Object { $_.Name -match $oldCopy } |
        ForEach-Object { Remove-Item -LiteralPath $_.FullName -Force -ErrorAction SilentlyContinue }

    $installed = & $dest --version
    Write-Host "Installed $installed ($target) to $dest"

    $userPath = [Environment]::GetEnvironmentVariable('Path', 'User')
    $onPath = ($env:Path -split ';') -contains $InstallDir -or ($userPath -split ';') -contains $InstallDir
    if (-not $onPath) {
        Write-Host ""
        Write-Host "$InstallDir is not on your PATH. Add it for your user, then open a new terminal:"
        Write-Host "  [Environment]::SetEnvironmentVariable('Path', `"$InstallDir;`" + [Environment]::GetEnvironmentVariable('Path', 'User'), 'User')"
        Write-Host "Until then, run it as $dest"
    }

    if ($Setup) {
        Write-Host ""
        if ($Yes) {
            Write-Host "Running devprojex setup --yes ..."
            & $dest setup --yes
        } elseif ([Environment]::UserInteractive -and -not [Console]::IsInputRedirected) {
            Write-Host "Running devprojex setup ..."
            & $dest setup
        } else {
            # No console to confirm on: show the plan, write nothing, keep the install a success.
            Write-Host "Running devprojex setup --dry-run (no console to confirm the changes on) ..."
            & $dest setup --dry-run
            Write-Host ""
            Write-Host "devprojex is installed; setup wrote nothing. Run 'devprojex setup' in a terminal, or"
            Write-Host "re-run the installer with -Setup -Yes to apply this plan without asking."
        }
    } else {
        Write-Host ""
        Write-Host "Next: run 'devprojex setup' to register devprojex with your MCP clients."
    }
} finally {
    if ($staged -and (Test-Path $staged)) { Remove-Item -Force $staged }
    Remove-Item -Recurse -Force $tmp -ErrorAction SilentlyContinue
}
