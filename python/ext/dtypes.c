#include "dtypes.h"

#include <string.h>

/* sgk_dtype by NumPy kind and item size, from the registry (see
   sgkpy_dtype_table_init); -1 where sgk has no such type. */
static const char numpy_kinds[] = "biufc";
#define MAX_ITEM_SIZE 16
static int8_t dtype_by_kind_size[sizeof numpy_kinds - 1][MAX_ITEM_SIZE + 1];

/* User-defined NumPy dtypes (ml_dtypes') and their sgk_dtype, from the
   Python layer. */
#define MAX_USER_DTYPES 8
static struct {
    int type_num, code;
} user_dtypes[MAX_USER_DTYPES];
static int n_user_dtypes;

/* The NumPy kind of a registry type's items, or 0 for none (pointers). */
static char numpy_kind(uint32_t flags)
{
    if (flags & SGK_DTYPE_BOOLEAN)
        return 'b';
    if (flags & SGK_DTYPE_INTEGER)
        return flags & SGK_DTYPE_SIGNED ? 'i' : 'u';
    if (flags & SGK_DTYPE_FLOAT)
        return 'f';
    if (flags & SGK_DTYPE_COMPLEX)
        return 'c';
    return 0;
}

static int8_t *slot_of(char kind, npy_intp size)
{
    const char *k = kind != 0 ? strchr(numpy_kinds, kind) : NULL;
    if (k == NULL || size < 1 || size > MAX_ITEM_SIZE)
        return NULL;
    return &dtype_by_kind_size[k - numpy_kinds][size];
}

int sgkpy_dtype_table_init(void)
{
    memset(dtype_by_kind_size, -1, sizeof dtype_by_kind_size);
    for (int code = 0; code < sgk_dtype_count(); code++) {
        /* NumPy's type of the same name, when it has the registry's kind
           and size: float16 is NumPy's, bfloat16 is not (ml_dtypes' is a
           user-defined dtype, which the Python layer hands over). */
        char kind = numpy_kind(sgk_dtype_flags((sgk_dtype)code));
        PyArray_Descr *descr = NULL;
        PyObject *name = PyUnicode_FromString(sgk_dtype_name((sgk_dtype)code));
        if (name == NULL)
            return -1;
        int known = kind != 0 && PyArray_DescrConverter2(name, &descr) && descr != NULL;
        Py_DECREF(name);
        PyErr_Clear();
        int8_t *slot = known ? slot_of(descr->kind, PyDataType_ELSIZE(descr)) : NULL;
        if (slot != NULL && descr->kind == kind
            && (size_t)PyDataType_ELSIZE(descr) == sgk_dtype_size((sgk_dtype)code))
            *slot = (int8_t)code;
        Py_XDECREF(descr);
    }
    return 0;
}

int sgkpy_set_user_dtypes(PyObject *dtypes)
{
    PyObject *dtype, *code;
    n_user_dtypes = 0;
    for (Py_ssize_t pos = 0; PyDict_Next(dtypes, &pos, &dtype, &code);) {
        long c = PyLong_AsLong(code);
        if (c == -1 && PyErr_Occurred())
            return -1;
        if (!PyArray_DescrCheck(dtype) || n_user_dtypes == MAX_USER_DTYPES
            || sgk_dtype_size((sgk_dtype)c) == 0) {
            PyErr_SetString(PyExc_ValueError, "user dtypes: at most 8 NumPy dtypes, each to an "
                                              "sgk_dtype code");
            return -1;
        }
        user_dtypes[n_user_dtypes].type_num = ((PyArray_Descr *)dtype)->type_num;
        user_dtypes[n_user_dtypes].code = (int)c;
        n_user_dtypes++;
    }
    return 0;
}

int sgkpy_dtype_code(PyArrayObject *array)
{
    PyArray_Descr *descr = PyArray_DESCR(array);
    for (int i = 0; i < n_user_dtypes; i++)
        if (descr->type_num == user_dtypes[i].type_num)
            return user_dtypes[i].code;
    /* A user-defined dtype may call itself kind 'f' (or anything): only
       NumPy's own types are read by kind and size. */
    if (PyTypeNum_ISUSERDEF(descr->type_num) || !PyArray_ISNOTSWAPPED(array))
        return -1;
    int8_t *slot = slot_of(descr->kind, PyArray_ITEMSIZE(array));
    return slot != NULL ? *slot : -1;
}
