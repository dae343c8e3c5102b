/* sgk-bench output: the table on stdout, the JSON file. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

static const char *mode_text(bench_mode mode)
{
    return mode == BENCH_MODE_PLAN ? "plan" : "oneshot";
}

/* A time with its unit, so that nanosecond calls and second-long ones share
   a column legibly. */
static const char *format_time(char *buf, size_t size, double ms)
{
    if (ms >= 100.0)
        snprintf(buf, size, "%.1f ms", ms);
    else if (ms >= 1.0)
        snprintf(buf, size, "%.3f ms", ms);
    else if (ms >= 1e-3)
        snprintf(buf, size, "%.2f us", ms * 1e3);
    else
        snprintf(buf, size, "%.0f ns", ms * 1e6);
    return buf;
}

/* The of_copy of a variant running at its traffic floor: the most this
   machine's memory allows it. */
static double floor_of_copy(const bench_run *run, const bench_result *r)
{
    return r->traffic_bytes / (r->floor_ms * 1e6) / run->copy_gbps;
}

void bench_report_table(FILE *out, const bench_run *run)
{
    fprintf(out, "sgk-bench: %s\n", run->runtime);
    fprintf(out, "run: %s, commit %s\n", run->date[0] ? run->date : "date unknown",
            run->commit);
    fprintf(out, "machine: %s; load average %.2f at start, %.2f at end\n", run->machine,
            run->load_start, run->load_end);
    fprintf(out, "copy bandwidth: %.2f GB/s (read + written bytes; threads %d; "
            "%.0f MiB -> %.0f MiB; median of %d; %.2f before the workloads, %.2f after, "
            "the higher kept)\n",
            run->copy_gbps, run->threads, run->copy_buffer_mib, run->copy_buffer_mib,
            run->opt.reps, run->copy_gbps_start, run->copy_gbps_end);
    fprintf(out, "mode %s; reps %d; scale %g; GB/s = minimal traffic / median; "
            "of_copy = GB/s / copy bandwidth; floor = the of_copy of moving the same "
            "bytes with no index work; from_1t = one-shot time at 1 thread over this "
            "run's, timed in alternation\n\n",
            mode_text(run->opt.mode), run->opt.reps, run->opt.scale);

    fprintf(out, "%-21s %-30s %11s %11s %11s %8s %8s %8s %8s  %s\n", "workload", "variant",
            "median", "min", "max", "GB/s", "of_copy", "floor", "from_1t", "note");
    char a[24], b[24], c[24];
    for (size_t i = 0; i < run->count; i++) {
        const bench_result *r = &run->results[i];
        if (i > 0 && strcmp(r->workload, run->results[i - 1].workload) != 0)
            fputc('\n', out);
        char floor[16] = "-";
        if (r->floor_ms > 0.0)
            snprintf(floor, sizeof floor, "%.3f", floor_of_copy(run, r));
        char from_one[16] = "-";
        if (r->speedup > 0.0)
            snprintf(from_one, sizeof from_one, "%.2fx", r->speedup);
        fprintf(out, "%-21s %-30s %11s %11s %11s %8.2f %8.3f %8s %8s  %s\n", r->workload,
                r->variant, format_time(a, sizeof a, r->median_ms),
                format_time(b, sizeof b, r->min_ms), format_time(c, sizeof c, r->max_ms),
                r->gbps, r->of_copy, floor, from_one, r->note);
    }

    fprintf(out, "\nplans (sgk_plan_describe, once per workload):\n");
    for (size_t i = 0; i < run->count; i++) {
        const bench_result *r = &run->results[i];
        bool seen = r->plan[0] == '\0';
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(run->results[j].workload, r->workload) == 0 &&
                   strcmp(run->results[j].plan, r->plan) == 0;
        if (!seen)
            fprintf(out, "  %-21s %s\n", r->workload, r->plan);
    }
    fflush(out);
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s != '\0'; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

/* JSON has no NaN or infinity. */
static void json_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.9g", v);
    else
        fputs("null", f);
}

/* "workloads": each workload's summary, once, in the order of the results:
   what a reader of the figures needs to know of it. */
static void json_workloads(FILE *f, const bench_run *run)
{
    fputs(",\n  \"workloads\": {", f);
    bool first = true;
    for (size_t i = 0; i < run->count; i++) {
        const bench_result *r = &run->results[i];
        bool seen = r->summary == NULL;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(run->results[j].workload, r->workload) == 0;
        if (seen)
            continue;
        fputs(first ? "\n    " : ",\n    ", f);
        json_string(f, r->workload);
        fputs(": ", f);
        json_string(f, r->summary);
        first = false;
    }
    fputs(first ? "}" : "\n  }", f);
}

int bench_report_json(const char *path, const bench_run *run)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    fputs("{\n  \"machine\": ", f);
    json_string(f, run->machine);
    fputs(",\n  \"date\": ", f);
    if (run->date[0] != '\0')
        json_string(f, run->date);
    else
        fputs("null", f);
    fputs(",\n  \"commit\": ", f);
    json_string(f, run->commit);
    fputs(",\n  \"load_start\": ", f);
    json_number(f, run->load_start);
    fputs(",\n  \"load_end\": ", f);
    json_number(f, run->load_end);
    fputs(",\n  \"runtime\": ", f);
    json_string(f, run->runtime);
    fputs(",\n  \"copy_gbps\": ", f);
    json_number(f, run->copy_gbps);
    fputs(",\n  \"copy_gbps_start\": ", f);
    json_number(f, run->copy_gbps_start);
    fputs(",\n  \"copy_gbps_end\": ", f);
    json_number(f, run->copy_gbps_end);
    fputs(",\n  \"copy_buffer_mib\": ", f);
    json_number(f, run->copy_buffer_mib);
    fprintf(f, ",\n  \"threads\": %d,\n  \"mode\": \"%s\",\n  \"reps\": %d,\n  \"scale\": ",
            run->threads, mode_text(run->opt.mode), run->opt.reps);
    json_number(f, run->opt.scale);
    json_workloads(f, run);
    fputs(",\n  \"results\": [", f);
    for (size_t i = 0; i < run->count; i++) {
        const bench_result *r = &run->results[i];
        fputs(i ? ",\n    {" : "\n    {", f);
        fputs("\"workload\": ", f);
        json_string(f, r->workload);
        fputs(", \"variant\": ", f);
        json_string(f, r->variant);
        fputs(", \"median_ms\": ", f);
        json_number(f, r->median_ms);
        fputs(", \"min_ms\": ", f);
        json_number(f, r->min_ms);
        fputs(", \"max_ms\": ", f);
        json_number(f, r->max_ms);
        fprintf(f, ", \"calls_per_rep\": %ld, \"traffic_bytes\": ", r->calls_per_rep);
        json_number(f, r->traffic_bytes);
        fputs(", \"gbps\": ", f);
        json_number(f, r->gbps);
        fputs(", \"of_copy\": ", f);
        json_number(f, r->of_copy);
        fputs(", \"floor_ms\": ", f);
        if (r->floor_ms > 0.0)
            json_number(f, r->floor_ms);
        else
            fputs("null", f);
        fputs(", \"floor_of_copy\": ", f);
        if (r->floor_ms > 0.0)
            json_number(f, floor_of_copy(run, r));
        else
            fputs("null", f);
        fputs(", \"speedup_from_1_thread\": ", f);
        if (r->speedup > 0.0)
            json_number(f, r->speedup);
        else
            fputs("null", f);
        fputs(", \"plan\": ", f);
        if (r->plan[0] != '\0')
            json_string(f, r->plan);
        else
            fputs("null", f);
        fputs(", \"note\": ", f);
        json_string(f, r->note);
        fputc('}', f);
    }
    fputs(run->count ? "\n  ]\n}\n" : "]\n}\n", f);
    bool failed = ferror(f) != 0;
    return fclose(f) == 0 && !failed ? 0 : -1;
}
