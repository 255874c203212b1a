#!/usr/bin/perl
# Turns docs/man/*.md (a small markdown subset) into a man page (roff), at build time.
# Perl because Debian's perl-base is essential: a fresh Debian 12 has it, python3 maybe not.
#   md2man.pl VERSION tilesight.1.md tilesight.1
# The subset: "# name(section)", "## SECTION", paragraphs, 4-space code blocks, definition
# items ("`term`" then ": text" lines), **bold** and `code`.
use strict;
use warnings;

@ARGV == 3 or die "usage: md2man.pl VERSION IN.md OUT\n";
my ($version, $in_path, $out_path) = @ARGV;
open(my $in, '<:encoding(UTF-8)', $in_path) or die "md2man.pl: $in_path: $!\n";
open(my $out, '>:encoding(UTF-8)', $out_path) or die "md2man.pl: $out_path: $!\n";
select $out;

sub escape {
  my ($s) = @_;
  $s =~ s/\\/\\e/g;
  $s =~ s/-/\\-/g;
  return $s;
}

sub inline {
  my $s = escape(shift);
  $s =~ s/\*\*(.+?)\*\*/\\fB$1\\fR/g;
  $s =~ s/`([^`]+)`/\\fB$1\\fR/g;
  $s =~ s/^([.'])/\\&$1/;
  return $s;
}

my ($in_code, $in_para) = (0, 0);
while (my $line = <$in>) {
  chomp $line;
  if ($line =~ /^    (.*)$/ && !$in_para) {
    print ".PP\n.RS 4\n.nf\n" unless $in_code;
    $in_code = 1;
    my $code = escape($1);
    $code =~ s/^([.'])/\\&$1/;
    print "$code\n";
    next;
  }
  if ($in_code) {
    print ".fi\n.RE\n";
    $in_code = 0;
  }
  if ($line =~ /^# (\S+)\((\d)\)$/) {
    print ".TH \U$1\E $2 \"\" \"tilesight $version\" \"User Commands\"\n";
  } elsif ($line =~ /^## (.*)$/) {
    print ".SH $1\n";
    $in_para = 0;
  } elsif ($line =~ /^`([^`]+)`$/) {
    print ".TP\n\\fB" . escape($1) . "\\fR\n";
    $in_para = 1;
  } elsif ($line =~ /^:\s+(.*)$/ || ($in_para && $line =~ /^  (\S.*)$/)) {
    print inline($1), "\n";
  } elsif ($line =~ /^\s*$/) {
    $in_para = 0;
  } else {
    print ".PP\n" unless $in_para;
    $in_para = 1;
    print inline($line), "\n";
  }
}
print ".fi\n.RE\n" if $in_code;
close $out or die "md2man.pl: $out_path: $!\n";
